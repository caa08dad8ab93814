/** The training backends by name, loaded on demand so that `rllm train --help` lists them without loading TensorFlow. */
import { createRegistry } from "../../core/registry.js";
import type { TrainingBackend } from "../backend.js";

/** Builds a backend from a starting checkpoint (the backend's default when absent); gives the base model it trains. */
export type CreateTrainingBackend = (checkpoint?: string) => Promise<{ backend: TrainingBackend; baseModel: string }>;

/** Backends `rllm train --backend` accepts. */
export const trainingBackends = createRegistry<CreateTrainingBackend>(
  "training backend",
  {
    local: { load: async () => (await import("./create-local-training-backend.js")).createLocalTrainingBackend },
    verl: { load: async () => (await import("./verl/create-verl-training-backend.js")).createVerlTrainingBackend },
  },
  { unknownNameHint: "tinker is not implemented yet" },
);
