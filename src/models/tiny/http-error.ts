/** An error the tiny model's server answers with an OpenAI-shaped body and an HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** `{error: {message, type, param, code}}` as OpenAI and vLLM send it. */
  toBody(): { error: { message: string; type: string; param: string | null; code: number } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.status } };
  }
}
