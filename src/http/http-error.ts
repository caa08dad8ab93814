/** HttpError: a request failure with its HTTP status, answered with an OpenAI-shaped error body. */

/** The body OpenAI and vLLM send with an error: `{error: {message, type, param, code}}` (code is the status, as vLLM does). */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: number };
}

/** An error a server answers with `status` and an OpenAI-shaped body; `param` names the request field at fault. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = defaultErrorType(status),
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** The OpenAI-shaped body of this error. */
  toBody(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.status } };
  }
}

/** OpenAI's error type for a status: SDKs map 4xx to named errors and retry only 408, 409, 429 and 5xx. */
function defaultErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}
