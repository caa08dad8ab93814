/** The local Tinker server's shared state: the options, the counters tests read, and what its routes work on. */
import type { ServerResponse } from "node:http";
import type { DecodedForwardBackwardRequest } from "../llm/tinker/tinker-proto.js";
import type { FutureResult, FutureTable } from "./future-table.js";
import type { FaultPlan } from "./server-faults.js";
import type { SequenceQueue } from "./sequence-queue.js";
import type { TinkerBaseModel, TinkerLearner } from "./tinker-base-model.js";

export interface LocalTinkerServerOptions {
  port?: number;
  host?: string;
  /** The only key accepted; absent = any key of Tinker's form (tml-… or a JWT). */
  apiKey?: string;
  /** The model to train and sample (a GGUF's, from loadGgufBaseModel); default: the tiny model of `checkpoint`. */
  base?: TinkerBaseModel;
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
  /** The model trained and sampled. */
  base: TinkerBaseModel;
  sessions: Set<string>;
  models: Map<string, { learner: TinkerLearner; queue: SequenceQueue; rank: number }>;
  /** Saved train states (save_weights), each the base model's own kind of value. */
  trainStates: Map<string, unknown>;
  /** The LoRA rank each train state was saved with, for a model made from it. */
  trainStateRanks: Map<string, number>;
  /** Saved sampler weights (save_weights_for_sampler), each the base model's own kind of value. */
  samplerWeights: Map<string, unknown>;
  stats: ServerStats;
  /** Runs `job` as a future: answers its id (and `promise`'s fields) now; a lost future's job never runs. */
  startFuture(response: ServerResponse, job: () => Promise<FutureResult>, queue?: { queue: SequenceQueue; seqId: number }, promise?: Record<string, unknown>): void;
}
