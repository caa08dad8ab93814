/**
 * The local Tinker server (`rllm serve --tinker`, a development tool): Tinker's HTTP, JSON and protobuf API backed by
 * the embedded tiny model (full weights stand in for LoRA; get_info says so) or by a GGUF model (LoRA in a torch
 * worker, sampling on llama.cpp), so the Tinker client and the official SDK run and are tested offline. It enforces
 * what the service does — the X-API-Key header, seq_id order per model, the chunk limits of its client config, known
 * models and paths — and injects faults on request (server-faults.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ModelWeights } from "../models/tiny/model-weights.js";
import { isSameSecret } from "../http/check-api-key.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/send-json.js";
import { requestPath, startHttpServer } from "../http/start-http-server.js";
import { FutureTable } from "./future-table.js";
import { parseFaultPlan } from "./server-faults.js";
import { loadTinyBaseModel } from "./tiny-base-model.js";
import { TinyTinkerLearner } from "./tiny-tinker-learner.js";
import { tinkerRoutes } from "./tinker-routes.js";

import type { LocalTinkerServerOptions, ServerState, ServerStats } from "./server-state.js";

export type { LocalTinkerServerOptions, ServerStats } from "./server-state.js";
export { LOCAL_TINKER_MODEL } from "./tiny-base-model.js";

export interface LocalTinkerServer {
  url: string;
  stats: ServerStats;
  /** The base model's name (base_model in create_model). */
  model: string;
  /** A tiny model's current weights (for comparing an update with another backend's). */
  modelWeights(modelId: string): ModelWeights;
  close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export async function startLocalTinkerServer(options: LocalTinkerServerOptions = {}): Promise<LocalTinkerServer> {
  const base = options.base ?? (await loadTinyBaseModel(options.checkpoint));
  const faults = options.faults ?? parseFaultPlan(process.env.RLLM_TINKER_FAULTS);
  const stats: ServerStats = { heartbeats: 0, requests: 0, forwardBackwardOrder: new Map(), chunkSizes: [], forwardOnlyRequests: 0, samplingSources: [] };
  const futures = new FutureTable(faults, { longPollMs: options.longPollMs ?? 200, inlineLimitBytes: options.inlineLimitBytes ?? Number.POSITIVE_INFINITY });
  const state: ServerState = {
    options: { maxChunkDatums: 1024, maxChunkBytes: 5_000_000, parallelChunks: true, compress: false, ...options },
    faults,
    futures,
    base,
    sessions: new Set(),
    models: new Map(),
    trainStates: new Map(),
    trainStateRanks: new Map(),
    samplerWeights: new Map(),
    stats,
    startFuture(response, job, queued, promise) {
      const { requestId, lost } = futures.create();
      sendJson(response, 200, { request_id: requestId, ...promise });
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
    model: base.name,
    modelWeights(modelId) {
      const found = state.models.get(modelId);
      if (!(found?.learner instanceof TinyTinkerLearner)) throw new Error(`local Tinker server: no tiny model "${modelId}"`);
      return found.learner.weights();
    },
    async close() {
      await server.close();
      // The base is closed even when a learner cannot be released (a torch worker that died): its llama.cpp weights,
      // worker and adapter folder must not outlive the server. The first failure is reported afterwards.
      const disposed = await Promise.allSettled([...state.models.values()].map((model) => model.learner.dispose()));
      await base.close();
      const failed = disposed.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
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
  const name = route.replace(/^\/api\/v1\//, "");
  // A path with an id in it (samplers/{id}) is routed by its first segment.
  const handler = tinkerRoutes[name] ?? (name.includes("/") ? tinkerRoutes[`${name.slice(0, name.indexOf("/"))}/`] : undefined);
  if (!handler || !route.startsWith("/api/v1/")) throw new HttpError(404, `No route ${request.method} ${route || "/"}`, "not_found_error");
  await handler(state, request, response);
}

function checkKey(state: ServerState, header: string | string[] | undefined): void {
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new HttpError(401, "missing X-API-Key header");
  // Compared as digests in constant time, as the other servers do (check-api-key.ts): `===` returns sooner the earlier
  // the keys differ, which leaks the key's prefix to a caller who times it.
  const expected = state.options.apiKey;
  const valid = expected !== undefined ? isSameSecret(key, expected) : key.startsWith("tml-") || key.startsWith("eyJ");
  if (!valid) throw new HttpError(401, "invalid API key");
}
