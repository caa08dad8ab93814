/**
 * The Fireworks REST client for the control plane, hot-load and inference: the key in X-Api-Key (and as a Bearer
 * token where the SDK adds one: hot-load, inference), JSON bodies, retries with backoff on 408/429/5xx and dropped
 * connections once the service has answered (fireworks-ai 1.2.30's _rest_client.py and request_with_retries).
 */
import { isRetryableStatus } from "../../../llm/retry-policy.js";
import { backoffDelay, type BackoffOptions } from "../../../llm/tinker/retry-policy.js";
import { connectionFailure } from "../../../llm/tinker/tinker-http-client.js";
import { FireworksApiError, FireworksAuthError, FireworksUnreachableError } from "./fireworks-errors.js";

/** The production API (the SDK's default base_url). */
export const FIREWORKS_DEFAULT_BASE_URL = "https://api.fireworks.ai";

/** Per-request options. */
export interface FireworksRequest {
  method?: "GET" | "POST" | "DELETE" | "PATCH";
  body?: unknown;
  /** Send the key as a Bearer token too (hot-load and inference calls). */
  bearer?: boolean;
  headers?: Record<string, string>;
  /** Statuses answered to the caller as `undefined` instead of thrown (404 on a lookup). */
  absentOn?: readonly number[];
}

/** A client bound to one base URL and key. */
export class FireworksRestClient {
  private answered = false;
  /** Set once a request spent its retries on a dead connection: later ones (the deletes on close) fail at once. */
  private lostDetail: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: () => string,
    private readonly retry: BackoffOptions = { initialMs: 500, maxMs: 8_000, maxRetries: 5 },
    private readonly sleep: (milliseconds: number) => Promise<void> = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
  ) {}

  /** Sends `path` (from the base URL) and answers the parsed JSON reply, or undefined for an `absentOn` status. */
  async request(path: string, options: FireworksRequest = {}): Promise<unknown> {
    const method = options.method ?? "GET";
    const key = this.apiKey();
    for (let retries = 0; ; retries++) {
      let response: Response;
      try {
        response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            "Content-Type": "application/json",
            "X-Api-Key": key,
            ...(options.bearer ? { Authorization: `Bearer ${key}` } : {}),
            ...options.headers,
          },
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        });
      } catch (error) {
        const detail = connectionFailure(error);
        // Never answered: down or misaddressed, so say so now rather than after the retries.
        if (!this.answered) throw new FireworksUnreachableError(this.baseUrl, detail);
        if (this.lostDetail !== undefined || retries >= this.retry.maxRetries) {
          this.lostDetail = detail;
          throw new FireworksUnreachableError(this.baseUrl, `${method} ${path} got no answer after ${retries + 1} attempts (${detail}); once it is back, rerun with --resume`);
        }
        await this.sleep(backoffDelay(this.retry, retries));
        continue;
      }
      this.answered = true;
      this.lostDetail = undefined;
      if (options.absentOn?.includes(response.status)) return undefined;
      const text = await response.text();
      if (response.ok) return text === "" ? {} : JSON.parse(text);
      const detail = errorDetail(text);
      if (response.status === 401 || response.status === 403) throw new FireworksAuthError(path, response.status, detail);
      if (!isRetryableStatus(response.status) || retries >= this.retry.maxRetries) throw new FireworksApiError(method, path, response.status, detail);
      await this.sleep(backoffDelay(this.retry, retries));
    }
  }
}

// The API's error body is {"error": {"message": ...}} or {"message": ...}; anything else is shown as it came.
function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    if (typeof parsed.error === "object" && parsed.error?.message) return parsed.error.message;
    if (typeof parsed.error === "string") return parsed.error;
    if (parsed.message) return parsed.message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.slice(0, 500);
}
