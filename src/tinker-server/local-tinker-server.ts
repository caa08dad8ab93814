/**
 * The local Tinker server (`rllm serve --tinker`, a development tool): Tinker's HTTP, JSON and protobuf API backed by
 * the embedded tiny model, so the Tinker client runs and is tested offline. Full weights stand in for LoRA (get_info
 * says so). It enforces what the service does — the X-API-Key header, seq_id order per model, the chunk limits of
 * its client config, known models and paths — and injects faults on request (server-faults.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readCheckpoint } from "../models/tiny/checkpoint.js";
import type { TinyModelConfig } from "../models/tiny/model-config.js";
import type { ModelWeights } from "../models/tiny/model-weights.js";
import { SHIPPED_CHECKPOINT_DIRECTORY } from "../models/tiny/tiny-model.js";
import { VOCABULARY } from "../models/tiny/tokenizer.js";
import type { LearnerState } from "../models/tiny/trainable-model.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/send-json.js";
import { requestPath, startHttpServer } from "../http/start-http-server.js";
import type { DecodedForwardBackwardRequest } from "../training/backends/tinker/tinker-proto.js";
import { FutureTable, type FutureResult } from "./future-table.js";
import { parseFaultPlan, type FaultPlan } from "./server-faults.js";
import type { SequenceQueue } from "./sequence-queue.js";
import { TinySamplingSessions } from "./tiny-sampling-sessions.js";
import type { TinyTinkerLearner } from "./tiny-tinker-learner.js";
import { tinkerRoutes } from "./tinker-routes.js";

/** The base model name the server trains. */
export const LOCAL_TINKER_MODEL = "rllm/tiny";

export interface LocalTinkerServerOptions {
  port?: number;
  host?: string;
  /** The only key accepted; absent = any key of Tinker's form (tml-… or a JWT). */
  apiKey?: string;
  /** Tiny-model checkpoint to train (default: the shipped one). */
  checkpoint?: string;
  maxChunkDatums?: number;
  maxChunkBytes?: number;
  parallelChunks?: boolean;
  compress?: boolean;
  faults?: FaultPlan;
  /** How long a poll waits for its future before answering try_again. */
  longPollMs?: number;
  /** Results larger than this are announced with complete_metadata first. */
  inlineLimitBytes?: number;
}

/** What the server has seen, for tests. */
export interface ServerStats {
  heartbeats: number;
  requests: number;
  /** seq_ids of forward_backward requests in the order they ran, per model. */
  forwardBackwardOrder: Map<string, number[]>;
  /** Datum counts of forward_backward requests as they arrived. */
  chunkSizes: number[];
  /** The last forward_backward that trained (not forward-only), as decoded: what a test asserts the client sent. */
  lastTrainingRequest?: DecodedForwardBackwardRequest;
  /** forward_backward requests with forward_only set (losses without an update). */
  forwardOnlyRequests: number;
  /** What each sampling session samples: a base model's name or a tinker:// sampler path, in order of creation. */
  samplingSources: string[];
}

/** Shared state the routes work on. */
export interface ServerState {
  options: Required<Pick<LocalTinkerServerOptions, "maxChunkDatums" | "maxChunkBytes" | "parallelChunks" | "compress">> & LocalTinkerServerOptions;
  faults: FaultPlan;
  futures: FutureTable;
  baseWeights: ModelWeights;
  modelConfig: TinyModelConfig;
  contextLength: number;
  vocabularySize: number;
  sessions: Set<string>;
  models: Map<string, { learner: TinyTinkerLearner; queue: SequenceQueue; rank: number }>;
  trainStates: Map<string, LearnerState>;
  samplerWeights: Map<string, ModelWeights>;
  sampling: TinySamplingSessions;
  stats: ServerStats;
  /** Runs `job` as a future: answers its id now; a lost future's job never runs. */
  startFuture(response: ServerResponse, job: () => Promise<FutureResult>, queue?: { queue: SequenceQueue; seqId: number }): void;
}

export interface LocalTinkerServer {
  url: string;
  stats: ServerStats;
  /** A model's current weights (for comparing an update with another backend's). */
  modelWeights(modelId: string): ModelWeights;
  close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export async function startLocalTinkerServer(options: LocalTinkerServerOptions = {}): Promise<LocalTinkerServer> {
  const checkpointDirectory = options.checkpoint ?? SHIPPED_CHECKPOINT_DIRECTORY;
  const checkpoint = await readCheckpoint(checkpointDirectory);
  const faults = options.faults ?? parseFaultPlan(process.env.RLLM_TINKER_FAULTS);
  const stats: ServerStats = { heartbeats: 0, requests: 0, forwardBackwardOrder: new Map(), chunkSizes: [], forwardOnlyRequests: 0, samplingSources: [] };
  const futures = new FutureTable(faults, { longPollMs: options.longPollMs ?? 200, inlineLimitBytes: options.inlineLimitBytes ?? Number.POSITIVE_INFINITY });
  const state: ServerState = {
    options: { maxChunkDatums: 1024, maxChunkBytes: 5_000_000, parallelChunks: true, compress: false, ...options },
    faults,
    futures,
    baseWeights: checkpoint.weights,
    modelConfig: checkpoint.manifest.config,
    contextLength: checkpoint.manifest.config.contextLength,
    vocabularySize: VOCABULARY.length,
    sessions: new Set(),
    models: new Map(),
    trainStates: new Map(),
    samplerWeights: new Map(),
    sampling: new TinySamplingSessions(checkpointDirectory),
    stats,
    startFuture(response, job, queued) {
      const { requestId, lost } = futures.create();
      sendJson(response, 200, { request_id: requestId });
      if (lost) return;
      const run = () => futures.complete(requestId, job);
      if (queued) queued.queue.enqueue(queued.seqId, run);
      else void run();
    },
  };
  const server = await startHttpServer((request, response) => handle(state, request, response), { host: options.host ?? "127.0.0.1", port: options.port ?? 0 });
  return {
    url: server.origin,
    stats,
    modelWeights(modelId) {
      const found = state.models.get(modelId);
      if (!found) throw new Error(`local Tinker server: no model "${modelId}"`);
      return found.learner.weights();
    },
    async close() {
      await server.close();
      for (const model of state.models.values()) model.learner.dispose();
    },
  };
}

async function handle(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  state.stats.requests += 1;
  const route = requestPath(request);
  if (route === "/api/v1/healthz") {
    sendJson(response, 200, { status: "ok" });
    return;
  }
  checkKey(state, request.headers["x-api-key"]);
  const { faults } = state;
  for (const [fault, status] of [["rate_limit", 429], ["unavailable", 503], ["billing", 402]] as const) {
    if (faults[fault] > 0) {
      faults[fault] -= 1;
      request.resume();
      throw new HttpError(status, `injected ${fault} fault`);
    }
  }
  const handler = tinkerRoutes[route.replace(/^\/api\/v1\//, "")];
  if (!handler || !route.startsWith("/api/v1/")) throw new HttpError(404, `No route ${request.method} ${route || "/"}`, "not_found_error");
  await handler(state, request, response);
}

function checkKey(state: ServerState, header: string | string[] | undefined): void {
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new HttpError(401, "missing X-API-Key header");
  const valid = state.options.apiKey !== undefined ? key === state.options.apiKey : key.startsWith("tml-") || key.startsWith("eyJ");
  if (!valid) throw new HttpError(401, "invalid API key");
}
