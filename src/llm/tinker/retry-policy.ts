/**
 * The capped exponential backoff between Tinker attempts (backends.md §1.1). Which statuses are retried (408, 409, 429,
 * 5xx; never 400/401/403/404/422) is the same rule as the OpenAI client's: `isRetryableStatus` in src/llm/retry-policy.ts.
 */

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
