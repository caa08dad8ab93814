/** Builds the verl backend for `rllm train --backend verl`; the model is whatever the verl job serves. */
import { InputError } from "../../../core/errors/input-error.js";
import type { CreateTrainingBackend } from "../create-training-backend.js";
import { VerlTrainingBackend } from "./verl-backend.js";
import { verlBackendSettings } from "./verl-backend-settings.js";

/** The verl backend from RLLM_VERL_* settings; a starting checkpoint is the job's model path, not ours to pick. */
export const createVerlTrainingBackend: CreateTrainingBackend = async (checkpoint, flags) => {
  if (checkpoint !== undefined) {
    throw new InputError(`--checkpoint is not supported with --backend verl: set actor_rollout_ref.model.path in the verl job (rllm verl launch --set)`);
  }
  try {
    // The model is the verl job's; the trainer names it when it registers.
    const settings = verlBackendSettings(process.env);
    return { backend: new VerlTrainingBackend({ ...settings, ...(flags?.notify ? { onProgress: flags.notify } : {}) }), baseModel: "verl-job" };
  } catch (error) {
    throw new InputError((error as Error).message);
  }
};
