/** An LlmClient decorator that answers repeated requests from the response cache and marks those replies `cached`. */
import type { ChatRequest, ChatResponse, LlmClient } from "../core/llm-client.js";
import { cacheKey, isCacheable, type CachePolicy } from "./cache-key.js";
import type { ResponseCache } from "./response-cache.js";

export interface CachingOptions {
  cache: ResponseCache;
  /** Part of the key: the same model name at two endpoints is two models. */
  baseUrl: string;
  policy: CachePolicy;
  /** Entries older than this are misses (and are overwritten by the fresh reply). */
  ttlMs?: number;
  now?: () => number;
}

/** Hit and miss counts of a caching client. */
export interface CacheCounters {
  hits: number;
  misses: number;
  /** Requests the policy kept out of the cache (sampled without a seed under `on`). */
  bypassed: number;
}

/** Wraps `client`: cacheable requests are looked up first and stored after a successful call. */
export function withResponseCache(client: LlmClient, options: CachingOptions): LlmClient & { counters: CacheCounters } {
  const now = options.now ?? Date.now;
  const counters: CacheCounters = { hits: 0, misses: 0, bypassed: 0 };
  async function chat(request: ChatRequest): Promise<ChatResponse> {
    if (!isCacheable(request, options.policy)) {
      counters.bypassed += 1;
      return client.chat(request);
    }
    const key = cacheKey(options.baseUrl, client.model, request);
    const stored = options.cache.get(key, options.ttlMs, now());
    if (stored) {
      counters.hits += 1;
      return { ...stored, cached: true };
    }
    counters.misses += 1;
    const response = await client.chat(request);
    options.cache.put(key, response, now());
    return response;
  }
  return { model: client.model, chat, counters };
}
