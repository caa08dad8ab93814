/** The training backends by name, loaded on demand so that `rllm train --help` lists them without loading TensorFlow. */
import { createRegistry } from "../../core/registry.js";
import type { CreateTrainingBackend } from "./create-training-backend.js";
import { needsTensorflow } from "../../models/tiny/needs-tensorflow.js";

/** Backends `rllm train --backend` and `rllm sft --backend` accept. */
export const trainingBackends = createRegistry<CreateTrainingBackend>(
  "training backend",
  {
    local: { load: async () => (await needsTensorflow(() => import("./create-local-training-backend.js"))).createLocalTrainingBackend },
    verl: { load: async () => (await import("./verl/create-verl-training-backend.js")).createVerlTrainingBackend },
    tinker: { load: async () => (await import("./tinker/create-tinker-training-backend.js")).createTinkerTrainingBackend },
    fireworks: { load: async () => (await import("./fireworks/create-fireworks-training-backend.js")).createFireworksTrainingBackend },
  },
);
