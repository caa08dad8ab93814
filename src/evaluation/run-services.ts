/**
 * What every run of one `rllm eval` invocation shares: the response cache, a rate limiter per endpoint, the price
 * table, and the sandbox with the pools opened on it (a grading thread pool, a code grader's slots), which close with
 * the services.
 */
import path from "node:path";
import { InputError, describeIssues } from "../core/errors/input-error.js";
import { optionName } from "../core/errors/option-name.js";
import { parseJsonFile } from "../core/parse-json-file.js";
import { PriceTableSchema, type ModelPrice, type PriceTable } from "../core/price-table.js";
import { rllmHome } from "../core/rllm-home.js";
import type { SandboxSetting } from "../core/sandbox-setting.js";
import { openRunResources, type OwnedRunResources } from "../sandbox/run-resources.js";
import type { CachePolicy } from "../llm/cache-key.js";
import type { RateLimiter } from "../llm/rate-limiter.js";
import { createRateLimiter, type CacheSetting } from "./model-call-pipeline.js";
import { parseDuration } from "../core/parse-duration.js";
import { assertInputFile } from "../core/check-paths.js";

/** What the shared services are built from (the CLI's --cache, --cache-ttl, --rpm, --tpm and --prices). */
export interface RunServiceOptions {
  cache?: true | "always";
  cacheTtl?: string;
  rpm?: number;
  tpm?: number;
  prices?: string;
  /** The runs' sandbox (planEval resolves it: --sandbox, else config.json's, else local). */
  sandbox?: SandboxSetting;
}

/** Shared services; `close` releases the cache file and closes the sandbox's pools. */
export interface RunServices {
  /** The sandbox and the pools the runs open on it. */
  resources: OwnedRunResources;
  cache?: CacheSetting;
  /** What opening the cache had to repair, for the CLI to print. */
  cacheRecovery?: string;
  /** One limiter per base URL: every run against an endpoint shares its limits. */
  limiterFor(baseUrl: string): RateLimiter | undefined;
  /** The price of `model`: from --prices when given (an input error if it lacks the model), else the endpoint's user config. */
  priceFor(model: string, configured?: ModelPrice): ModelPrice | undefined;
  close(): Promise<void>;
}

/** The cache policy from --cache or RLLM_CACHE (1/true/on, or always); undefined when caching is off. */
export function cachePolicy(flag: true | "always" | undefined, environment: NodeJS.ProcessEnv = process.env): CachePolicy | undefined {
  if (flag === "always") return "always";
  if (flag === true) return "on";
  const variable = environment.RLLM_CACHE?.trim().toLowerCase();
  if (variable === "always") return "always";
  return variable === "1" || variable === "true" || variable === "on" ? "on" : undefined;
}

/** Opens the services the options ask for (the cache's SQLite module is loaded only when caching). */
export async function openRunServices(options: RunServiceOptions): Promise<RunServices> {
  const prices = options.prices ? readPriceTable(options.prices) : undefined;
  const ttlMs = options.cacheTtl === undefined ? undefined : parseDuration(optionName("cacheTtl"), options.cacheTtl);
  const policy = cachePolicy(options.cache);
  let cache: CacheSetting | undefined;
  if (policy) {
    const { ResponseCache, cacheFile } = await import("../llm/response-cache.js");
    cache = { store: ResponseCache.open(cacheFile(rllmHome())), policy, ...(ttlMs !== undefined ? { ttlMs } : {}) };
  }
  const limiters = new Map<string, RateLimiter | undefined>();
  const resources = openRunResources({ ...(options.sandbox ? { sandbox: options.sandbox } : {}) });
  return {
    resources,
    ...(cache ? { cache } : {}),
    ...(cache?.store.recovery ? { cacheRecovery: cache.store.recovery } : {}),
    limiterFor(baseUrl) {
      if (!limiters.has(baseUrl)) limiters.set(baseUrl, createRateLimiter({ requestsPerMinute: options.rpm, tokensPerMinute: options.tpm }));
      return limiters.get(baseUrl);
    },
    priceFor(model, configured) {
      if (!prices) return configured;
      const price = prices.table[model];
      if (!price) throw new InputError(`${prices.file}: no prices for model "${model}" (it has ${Object.keys(prices.table).join(", ") || "none"})`);
      return price;
    },
    async close() {
      cache?.store.close();
      await resources.close();
    },
  };
}

function readPriceTable(file: string): { file: string; table: PriceTable } {
  assertInputFile(optionName("prices"), file);
  const parsed = PriceTableSchema.safeParse(parseJsonFile(file));
  if (!parsed.success) throw new InputError(describeIssues(path.resolve(file), undefined, parsed.error));
  return { file, table: parsed.data };
}
