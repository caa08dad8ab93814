/** What one eval is asked to do, as a typed object: the CLI maps `rllm eval`'s flags to it once, an eval set builds one per cell. */
import { z } from "zod";
import type { Benchmark } from "../core/benchmark.js";
import type { Cookbook } from "../core/cookbook.js";
import { ModelPriceSchema } from "../core/price-table.js";
import { SandboxSettingInputSchema } from "../core/sandbox-setting.js";
import { SelectionMethodSchema } from "../tournament/selection-methods.js";

/** Sampling parameters sent with every model call; unset ones are left to the server. */
const SamplingOptionsSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().gt(0).max(1).optional(),
    maxTokens: z.number().int().positive().optional(),
  })
  .strict();

// A library user's own Benchmark or Cookbook object stands where the CLI gives a name; only what planning calls is checked.
const BenchmarkObjectSchema = z.custom<Benchmark>(
  (value) => typeof value === "object" && value !== null && typeof (value as Benchmark).name === "string" && typeof (value as Benchmark).loadTasks === "function",
  "expected a benchmark name or a Benchmark ({name, defaultCookbook, loadTasks})",
);
const CookbookObjectSchema = z.custom<Cookbook>(
  (value) => typeof value === "object" && value !== null && typeof (value as Cookbook).flow === "function" && typeof (value as Cookbook).evaluate === "function",
  "expected a cookbook name, a module path or a Cookbook ({name, flow, evaluate})",
);

/** The options of one eval; defaults are `rllm eval`'s. */
export const EvalOptionsSchema = z
  .object({
    /** A benchmark name, a registered dataset, a folder of terminal tasks (`<path>` or `harbor:<path>`), or your own Benchmark. */
    benchmark: z.union([z.string().min(1), BenchmarkObjectSchema]),
    /** openai: an OpenAI-compatible `baseUrl` (or the embedded model); tinker: `model` is a Tinker base model or tinker:// path. */
    backend: z.enum(["openai", "tinker"]).default("openai"),
    /** tinker only: a directory with tokenizer.json and tokenizer_config.json. */
    tokenizer: z.string().optional(),
    /** A named endpoint of $RLLM_HOME/config.json, or `baseUrl` + `model`; neither means the embedded tiny model. */
    endpoint: z.string().optional(),
    baseUrl: z.string().url().optional(),
    model: z.string().min(1).optional(),
    /** The environment variable holding the API key (default OPENAI_API_KEY). */
    apiKeyEnv: z.string().min(1).optional(),
    /** A local GGUF served here with llama.cpp (`model` may name a pulled one instead). */
    modelFile: z.string().min(1).optional(),
    /** llama.cpp's CPU threads for a GGUF served here. */
    threads: z.number().int().positive().optional(),
    /** The model's price when no `prices` table names it (an eval set model's `prices`); else the endpoint's. */
    price: ModelPriceSchema.optional(),
    /** Your own rows instead of the benchmark's data. */
    data: z.string().optional(),
    split: z.string().default("test"),
    /** A built-in cookbook name, a module path, or your own Cookbook (default: the benchmark's). */
    cookbook: z.union([z.string().min(1), CookbookObjectSchema]).optional(),
    /** The cookbook's own options (`--set key=value`), checked against its schema. */
    cookbookOptions: z.record(z.string(), z.unknown()).default({}),
    limit: z.number().int().positive().optional(),
    attempts: z.number().int().positive().default(1),
    /** Episodes in flight at once. */
    concurrency: z.number().int().positive().default(16),
    sampling: SamplingOptionsSchema.default({}),
    /** Each episode samples with a seed derived from it, the task id and the attempt. */
    seed: z.number().int().nonnegative().default(0),
    /** Per episode; an episode over it is scored wrong. */
    timeoutSeconds: z.number().positive().default(600),
    /** Retries per model call, and across the whole run. */
    maxRetries: z.number().int().nonnegative().default(8),
    retryBudget: z.number().int().nonnegative().default(10_000),
    /** After each task's attempts, pick one with each selection method; `budget` judge calls per task as a multiple of the attempts. */
    rerank: z
      .object({ methods: z.array(SelectionMethodSchema).min(1), budget: z.number().positive().default(2) })
      .strict()
      .optional(),
    /** Where untrusted code runs: `local`, `docker`, `URL[,URL…]` or a setting (default: config.json's `sandbox`, else local). */
    sandbox: SandboxSettingInputSchema.optional(),
    /** The run directory (default runs/<benchmark>-<timestamp>); `resume` finishes the run there. */
    out: z.string().optional(),
    resume: z.boolean().default(false),
    /** The response cache: true caches seeded or greedy requests, "always" every request (also RLLM_CACHE). */
    cache: z.union([z.literal(true), z.literal("always")]).optional(),
    /** Cached replies older than this (90s, 30m, 12h, 7d) are fetched again. */
    cacheTtl: z.string().optional(),
    /** Rate limits shared by every episode against one endpoint. */
    rpm: z.number().positive().optional(),
    tpm: z.number().positive().optional(),
    /** A JSON file of model prices in $ per million tokens. */
    prices: z.string().optional(),
    /** Stop starting episodes before the spend would pass this many dollars. */
    maxCost: z.number().positive().optional(),
  })
  .strict();
/** The options as given (defaults may be left out). */
export type EvalOptionsInput = z.input<typeof EvalOptionsSchema>;
/** The options with their defaults filled in. */
export type EvalOptions = z.infer<typeof EvalOptionsSchema>;
