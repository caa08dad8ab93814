/** Mapping a failed upstream call (as the LlmClient reports it) onto the HttpError a proxying server answers with. */
import { InfraError } from "../core/errors/infra-error.js";
import { HttpError } from "./http-error.js";

/** What an upstream's own error body may hold (the OpenAI SDK keeps it as `error` on its APIError). */
interface UpstreamErrorFields {
  status?: unknown;
  error?: { message?: unknown; type?: unknown; param?: unknown } | null;
}

/**
 * The reply for an upstream failure: an upstream 4xx is relayed with its status, message, type and param (an OpenAI
 * SDK retries 5xx, not 4xx, so turning a 400 or 404 into a 5xx makes it retry a request that cannot succeed);
 * an unreachable or failing upstream is a 502.
 */
export function upstreamHttpError(error: unknown): HttpError {
  const status = upstreamStatus(error);
  if (status !== undefined && status >= 400 && status < 500) {
    const fields = upstreamFields(error)?.error;
    const message = typeof fields?.message === "string" ? fields.message : error instanceof Error ? error.message : String(error);
    const type = typeof fields?.type === "string" ? fields.type : undefined;
    const param = typeof fields?.param === "string" ? fields.param : null;
    return new HttpError(status, `upstream: ${message}`, type, param);
  }
  if (error instanceof HttpError) return error;
  return new HttpError(502, `upstream failed: ${error instanceof Error ? error.message : String(error)}`, "server_error");
}

function upstreamStatus(error: unknown): number | undefined {
  if (error instanceof InfraError && error.status !== undefined) return error.status;
  const status = upstreamFields(error)?.status;
  return typeof status === "number" ? status : undefined;
}

// The LlmClient wraps the SDK's error as `cause`; its status and body are there.
function upstreamFields(error: unknown): UpstreamErrorFields | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return typeof cause === "object" && cause !== null ? (cause as UpstreamErrorFields) : undefined;
}
