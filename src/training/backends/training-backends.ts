/** The training backends by name, loaded on demand so that `rllm train --help` lists them without loading TensorFlow. */
import { createRegistry } from "../../core/registry.js";
import type { TrainingBackend } from "../backend.js";

/** What `rllm train` passes on to a remote backend: the base model, LoRA rank, service URL, tokenizer, notices. */
export interface BackendFlags {
  model?: string;
  loraRank?: number;
  baseUrl?: string;
  /** A directory with tokenizer.json and tokenizer_config.json. */
  tokenizer?: string;
  notify?: (message: string) => void;
}

/**
 * Builds a backend from a starting checkpoint (the backend's default when absent) and the flags it reads; gives the
 * base model it trains.
 */
export type CreateTrainingBackend = (checkpoint?: string, flags?: BackendFlags) => Promise<{ backend: TrainingBackend; baseModel: string }>;

/** Backends `rllm train --backend` accepts. */
export const trainingBackends = createRegistry<CreateTrainingBackend>(
  "training backend",
  {
    local: { load: async () => (await import("./create-local-training-backend.js")).createLocalTrainingBackend },
    tinker: { load: async () => (await import("./tinker/create-tinker-training-backend.js")).createTinkerTrainingBackend },
  },
  { unknownNameHint: "verl is not implemented yet" },
);
