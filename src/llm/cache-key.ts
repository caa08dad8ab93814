/** The response cache's key: a hash of the canonical request (endpoint, model, messages, tools, sampling, seed). */
import { createHash } from "node:crypto";
import type { ChatRequest } from "../core/llm-client.js";

/** When replies are cached: `on` caches deterministic requests only; `always` caches sampled ones too. */
export type CachePolicy = "on" | "always";

/** JSON with object keys sorted at every depth, so that key order never changes the hash. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The sha256 key of a request sent to `model` at `baseUrl` (the abort signal is not part of the request). */
export function cacheKey(baseUrl: string, model: string, request: ChatRequest): string {
  const { signal: _signal, ...content } = request;
  return createHash("sha256").update(canonicalJson({ baseUrl: baseUrl.replace(/\/+$/, ""), model, ...content })).digest("hex");
}

/**
 * Whether a request may be answered from the cache. Sampling at temperature > 0 without a seed is usually done to
 * get a different reply each time, so it is cached only under `always`. An unset temperature is the server's
 * default, which is 1 at most providers: it counts as sampled.
 */
export function isCacheable(request: ChatRequest, policy: CachePolicy): boolean {
  if (policy === "always") return true;
  return request.seed !== undefined || request.temperature === 0;
}
