/** ModelError: the model answered, but the answer was unusable (bad tool-call JSON, empty reply, 400 on its output). */
export class ModelError extends Error {
  readonly errorClass = "model_error" as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelError";
  }
}
