/** Which Tinker replies are retried (backends.md §1.1), and the capped exponential backoff between attempts. */

/** Retried: 408, 409, 429 and 5xx (connection errors too, handled by the caller); never 400, 401, 403, 404 or 422. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Attempts and backoff: the SDK's defaults are 10 retries from 0.5 s doubling to 10 s. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  maxRetries: number;
}

/** The tinker SDK's retry defaults. */
export const TINKER_RETRY_DEFAULTS: BackoffOptions = { initialMs: 500, maxMs: 10_000, maxRetries: 10 };

/** Delay before retry number `retry` (0-based): initial × 2^retry, capped. */
export function backoffDelay(options: Pick<BackoffOptions, "initialMs" | "maxMs">, retry: number): number {
  return Math.min(options.maxMs, options.initialMs * 2 ** retry);
}
