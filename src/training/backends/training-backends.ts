/** The training backends by name, loaded on demand so that `rllm train --help` lists them without loading TensorFlow. */
import { createRegistry } from "../../core/registry.js";
import type { TrainingBackend } from "../backend.js";
import type { ChatTokenizer } from "../sft/tokenize-sft-row.js";

/**
 * Builds a backend from a starting checkpoint (the backend's default when absent); gives the base model it trains
 * and, when it has one, the model's chat template and tokenizer (for SFT rows without sampled token ids).
 */
export type CreateTrainingBackend = (checkpoint?: string) => Promise<{ backend: TrainingBackend; baseModel: string; tokenizer?: ChatTokenizer }>;

/** Backends `rllm train --backend` and `rllm sft --backend` accept. */
export const trainingBackends = createRegistry<CreateTrainingBackend>(
  "training backend",
  {
    local: { load: async () => (await import("./create-local-training-backend.js")).createLocalTrainingBackend },
    verl: { load: async () => (await import("./verl/create-verl-training-backend.js")).createVerlTrainingBackend },
  },
  { unknownNameHint: "tinker is not implemented yet" },
);
