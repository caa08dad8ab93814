/** When and how long to wait before retrying a failed model call: exponential backoff with jitter, honouring Retry-After. */

export interface RetryPolicy {
  /** Retries allowed for one request (so at most maxRetries + 1 attempts). */
  maxRetries: number;
  /** First backoff in milliseconds; doubles each retry. */
  baseDelayMs: number;
  /** Cap on a single wait, whatever the server's Retry-After says. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 8, baseDelayMs: 500, maxDelayMs: 60_000 };

/**
 * A budget of retries shared by every request of a run, so a dead endpoint ends the run instead of
 * retrying each episode eight times over.
 */
export class RetryBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  /** Takes one retry from the budget; false when it is spent. */
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used += 1;
    return true;
  }
  get spent(): number {
    return this.used;
  }
}

// 408 timeout, 409 conflict (OpenAI's lock contention), 429 rate limit, 5xx server errors.
// 400/401/403/404/422 are the caller's fault: retrying cannot help.
/** Whether an HTTP status is worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Seconds or an HTTP date in Retry-After (and OpenAI's retry-after-ms) → milliseconds, or undefined. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff before retry number `retry` (0-based): full jitter on base·2^retry, or the server's Retry-After when given. */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number, serverDelayMs?: number): number {
  if (serverDelayMs !== undefined) return Math.min(policy.maxDelayMs, serverDelayMs + random() * policy.baseDelayMs * 0.1);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return ceiling / 2 + (random() * ceiling) / 2;
}
