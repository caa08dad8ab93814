/**
 * The client an eval's model calls go through: the OpenAI client (retries), then the shared rate limiter, then the
 * response cache outermost, so that a cached reply neither waits for the limits nor counts against them.
 */
import type { LlmClient } from "../core/llm-client.js";
import type { CachePolicy } from "../llm/cache-key.js";
import { withResponseCache, type CacheCounters } from "../llm/caching-llm-client.js";
import { createOpenAiClient } from "../llm/openai-client.js";
import { withRateLimit } from "../llm/rate-limited-client.js";
import { RateLimiter, type RateLimits } from "../llm/rate-limiter.js";
import type { ResponseCache } from "../llm/response-cache.js";
import { defaultRetryPolicy, type RetryBudget } from "../llm/retry-policy.js";
import { abortableSleep } from "../core/abortable-sleep.js";

/** The response cache as a run uses it. */
export interface CacheSetting {
  store: ResponseCache;
  policy: CachePolicy;
  ttlMs?: number;
}

/** One endpoint's client: where it is, how it retries, and the run's shared limiter and cache. */
export interface PipelineOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Retries per request (default: the client's policy, 8). */
  maxRetries?: number;
  /** Retries shared by every request of the run; unlimited when absent. */
  retryBudget?: RetryBudget;
  onRetry?: () => void;
  /** Shared by every client of the run (and of every cell of an eval set that calls the same endpoint). */
  limiter?: RateLimiter;
  cache?: CacheSetting;
}

/** The wrapped client, and its cache counters when caching. */
export interface ModelCallPipeline {
  client: LlmClient;
  cacheCounters?: CacheCounters;
}

/** Builds the client for one endpoint of a run. */
export function buildModelCallPipeline(options: PipelineOptions): ModelCallPipeline {
  const base = createOpenAiClient({
    baseUrl: options.baseUrl,
    model: options.model,
    apiKey: options.apiKey,
    retryPolicy: { ...defaultRetryPolicy, ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}) },
    ...(options.retryBudget ? { retryBudget: options.retryBudget } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.limiter ? { onResponseHeaders: options.limiter.observeHeaders.bind(options.limiter) } : {}),
  });
  const limited = options.limiter ? withRateLimit(base, options.limiter) : base;
  if (!options.cache) return { client: limited };
  const cached = withResponseCache(limited, { cache: options.cache.store, baseUrl: options.baseUrl, policy: options.cache.policy, ttlMs: options.cache.ttlMs });
  return { client: cached, cacheCounters: cached.counters };
}

/** A rate limiter on the real clock, or none when neither limit is set. */
export function createRateLimiter(limits: RateLimits): RateLimiter | undefined {
  if (limits.requestsPerMinute === undefined && limits.tokensPerMinute === undefined) return undefined;
  return new RateLimiter(limits, { now: () => Date.now(), sleep: (milliseconds, signal) => abortableSleep(milliseconds, signal) });
}
