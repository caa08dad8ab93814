/**
 * What the local Tinker server trains and samples: the embedded tiny model (tfjs learner, full weights), or a GGUF
 * model (a torch worker with LoRA learns, llama.cpp samples). The routes speak Tinker; a base model does the work.
 */
import type { DecodedForwardBackwardRequest, ForwardBackwardResult, SampledSequence } from "../llm/tinker/tinker-proto.js";

/** optim_step's Adam parameters as the wire carries them (grad_clip_norm 0 = no clipping). */
export interface AdamParameters {
  learning_rate: number;
  beta1: number;
  beta2: number;
  eps: number;
  weight_decay: number;
  grad_clip_norm: number;
}

/** create_model's LoRA configuration. */
export interface LearnerOptions {
  rank: number;
  seed: number;
  trainAttention: boolean;
  trainMlp: boolean;
}

/** One trainable model (a Tinker training client's model). Train states and sampler weights are the base model's own kind of value. */
export interface TinkerLearner {
  /** forward_backward (or forward only): per-datum learner logprobs and the summed loss. */
  forwardBackward(request: DecodedForwardBackwardRequest): Promise<ForwardBackwardResult>;
  /** Applies the pending gradients; answers their metrics (grad_norm). */
  optimStep(adam: AdamParameters): Promise<Record<string, number>>;
  /** Weights and optimizer state (save_weights), kept under `path`. */
  saveState(path: string): Promise<unknown>;
  /** Puts back a saved state, its optimizer too when asked (load_weights). */
  loadState(state: unknown, withOptimizer: boolean): Promise<void>;
  /** The current weights for sampling (save_weights_for_sampler). */
  samplerWeights(): Promise<unknown>;
  dispose(): Promise<void>;
}

/** asample's parameters as the server reads them. */
export interface SampleRequest {
  promptTokenIds: number[];
  numSamples: number;
  maxTokens: number;
  temperature: number;
  topP: number;
  seed?: number;
  stopTokenIds: number[];
  /** Stop strings, matched on the decoded sample (control tokens kept): the sequence ends with the token completing one. */
  stopStrings: string[];
}

/** Where a session's weights came from: what `GET /api/v1/samplers/{id}` answers (tinker's GetSamplerResponse). */
export interface SamplerSource {
  baseModel: string;
  modelPath: string | null;
}

/** Sampling sessions by id, each on the weights it was created with. */
export interface SamplingSessions {
  create(sessionId: string, weights: unknown, source: SamplerSource): string;
  has(id: string): boolean;
  source(id: string): SamplerSource | undefined;
  sample(id: string, request: SampleRequest): Promise<SampledSequence[]>;
  /** Each prompt token's logprob given those before it: null for the first, and for those before the last `lastN`. */
  promptLogprobs(id: string, promptTokenIds: readonly number[], lastN?: number): Promise<(number | null)[]>;
}

/** The model the server serves. */
export interface TinkerBaseModel {
  /** The base_model name clients ask for. */
  readonly name: string;
  readonly contextLength: number;
  readonly vocabularySize: number;
  /** get_info's fields: model_data.arch and tokenizer_id, is_lora, and a note on what differs from the service. */
  readonly info: { arch: string; tokenizerId: string; isLora: boolean; note: string };
  /** The base weights, as sampler weights. */
  readonly baseSamplerWeights: unknown;
  readonly sampling: SamplingSessions;
  createLearner(options: LearnerOptions): Promise<TinkerLearner>;
  close(): Promise<void>;
}
