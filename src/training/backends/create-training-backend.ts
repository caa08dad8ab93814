/** Builds a training backend by name; only "local" exists today, and asking for another names what does. */
import { InputError } from "../../core/errors/input-error.js";
import type { TrainingBackend } from "../backend.js";
import { TRAINING_BACKENDS } from "./training-backends.js";
import { createLocalBackend } from "./local-backend.js";
import { startTinySampler } from "./tiny-sampler.js";
import { readCheckpoint } from "../../models/tiny/checkpoint.js";
import { loadTinyModel, SHIPPED_CHECKPOINT_DIRECTORY } from "../../models/tiny/tiny-model.js";

/** The backend and the base model it trains; `checkpoint` is a tiny-model checkpoint directory (default: the shipped one). */
export async function createTrainingBackend(
  name: string,
  checkpoint: string = SHIPPED_CHECKPOINT_DIRECTORY,
): Promise<{ backend: TrainingBackend; baseModel: string }> {
  if (name !== "local") {
    throw new InputError(`--backend ${name}: unknown training backend; available: ${TRAINING_BACKENDS.join(", ")} (tinker and verl are not implemented yet)`);
  }
  const model = await loadTinyModel(checkpoint);
  const { weights } = await readCheckpoint(checkpoint);
  const backend = createLocalBackend({
    config: model.config,
    weights,
    startSampler: (weights) => startTinySampler(model, weights),
  });
  return { backend, baseModel: checkpoint };
}
