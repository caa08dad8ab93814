/** An eval set file (JSON or YAML): models × benchmarks, run as one resumable job with one run folder per cell. */
import { z } from "zod";
import { ModelPriceSchema } from "./price-table.js";
import { SandboxSettingInputSchema } from "./sandbox-setting.js";

const SamplingSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().gt(0).max(1).optional(),
    maxTokens: z.number().int().positive().optional(),
  })
  .strict();

/** A model: a named endpoint of the user config, or a base URL and model; the key only by its variable's name. */
export const EvalSetModelSchema = z
  .object({
    /** The cell label (default: the endpoint name or the model). */
    name: z.string().regex(/^[\w.-]+$/, "letters, digits, '.', '_' and '-' only (it names a folder)").optional(),
    endpoint: z.string().optional(),
    baseUrl: z.string().url().optional(),
    model: z.string().min(1).optional(),
    apiKeyEnv: z.string().min(1).optional(),
    sampling: SamplingSchema.default({}),
    prices: ModelPriceSchema.optional(),
  })
  .strict()
  .superRefine((model, context) => {
    if (model.endpoint !== undefined && (model.baseUrl !== undefined || model.model !== undefined)) {
      context.addIssue({ code: "custom", path: ["endpoint"], message: "give either endpoint or baseUrl + model, not both" });
    }
    if (model.endpoint === undefined && model.baseUrl === undefined) context.addIssue({ code: "custom", path: ["baseUrl"], message: "required (or give endpoint)" });
    if (model.baseUrl !== undefined && model.model === undefined) context.addIssue({ code: "custom", path: ["model"], message: "required with baseUrl" });
  });
export type EvalSetModel = z.infer<typeof EvalSetModelSchema>;

/** A benchmark with its run settings (paths are relative to the eval set file). */
export const EvalSetBenchmarkSchema = z
  .object({
    benchmark: z.string().min(1),
    /** The cell label (default: the benchmark name); needed when one benchmark appears twice. */
    name: z.string().regex(/^[\w.-]+$/, "letters, digits, '.', '_' and '-' only (it names a folder)").optional(),
    data: z.string().optional(),
    split: z.string().default("test"),
    cookbook: z.string().optional(),
    limit: z.number().int().positive().optional(),
    attempts: z.number().int().positive().default(1),
    rerank: z.array(z.string()).min(1).optional(),
    budget: z.number().positive().default(2),
    set: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  })
  .strict();
export type EvalSetBenchmark = z.infer<typeof EvalSetBenchmarkSchema>;

export const EvalSetConfigSchema = z
  .object({
    models: z.array(EvalSetModelSchema).min(1),
    benchmarks: z.array(EvalSetBenchmarkSchema).min(1),
    /** The cells to run as [model label, benchmark label] pairs (default: every model × every benchmark). */
    matrix: z.array(z.object({ model: z.string(), benchmark: z.string() }).strict()).min(1).optional(),
    seed: z.number().int().nonnegative().default(0),
    /** Episodes in flight at once across the whole set (the cells run at once and take turns for the slots). */
    concurrency: z.number().int().positive().default(16),
    /** Rate limits per endpoint, shared by every cell that calls it. */
    rpm: z.number().positive().optional(),
    tpm: z.number().positive().optional(),
    timeoutSeconds: z.number().positive().default(600),
    /** Where every cell's untrusted code runs: `local`, `docker` or `URL[,URL…]` (`--sandbox` overrides; default: config.json's, else local). */
    sandbox: SandboxSettingInputSchema.optional(),
  })
  .strict();
export type EvalSetConfig = z.infer<typeof EvalSetConfigSchema>;

/** A model's cell label. */
export function modelLabel(model: EvalSetModel): string {
  return model.name ?? model.endpoint ?? model.model!.replace(/[^\w.-]/g, "_");
}

/** A benchmark's cell label. */
export function benchmarkLabel(benchmark: EvalSetBenchmark): string {
  return benchmark.name ?? benchmark.benchmark;
}

/** zod issue path → `models[1].baseUrl`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text === "" ? String(part) : `${text}.${String(part)}`), "") || "(root)";
}
