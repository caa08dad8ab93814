/** The training backends by name, loaded on demand so that `rllm train --help` lists them without loading TensorFlow. */
import { createRegistry } from "../../core/registry.js";
import type { TrainingBackend } from "../backend.js";
import type { ChatTokenizer } from "../sft/tokenize-sft-row.js";

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
 * base model it trains and, when it has one, the model's chat template and tokenizer (for SFT rows without sampled
 * token ids), known once the backend is open (Tinker learns the model's tokenizer from the service).
 */
export type CreateTrainingBackend = (
  checkpoint?: string,
  flags?: BackendFlags,
) => Promise<{ backend: TrainingBackend; baseModel: string; chatTokenizer?: () => ChatTokenizer | undefined }>;

/** Backends `rllm train --backend` and `rllm sft --backend` accept. */
export const trainingBackends = createRegistry<CreateTrainingBackend>(
  "training backend",
  {
    local: { load: async () => (await import("./create-local-training-backend.js")).createLocalTrainingBackend },
    verl: { load: async () => (await import("./verl/create-verl-training-backend.js")).createVerlTrainingBackend },
    tinker: { load: async () => (await import("./tinker/create-tinker-training-backend.js")).createTinkerTrainingBackend },
    fireworks: { load: async () => (await import("./fireworks/create-fireworks-training-backend.js")).createFireworksTrainingBackend },
  },
);
