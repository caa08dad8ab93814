/** `rllm eval`'s flag schema, apart from the command so that its action (eval.ts, eval-set.ts) imports the type without the command. */
import { z } from "zod";
import { SelectionMethodSchema } from "../../tournament/selection-methods.js";
import { commaList, concurrencyFlag, endpointFlags, localModelFlags, outFlag, samplingFlags, sandboxFlags, seedFlag } from "../shared-flags.js";

/** `rllm eval`'s flags. */
export const EvalFlagsSchema = z.object({
  backend: z.enum(["openai", "tinker"]).default("openai").describe("openai: an OpenAI-compatible --base-url (or the embedded model); tinker: --model is a Tinker base model or tinker:// sampler path, --base-url the Tinker service").meta({ value: "name" }),
  tokenizer: z.string().optional().describe("--backend tinker: a directory with tokenizer.json and tokenizer_config.json").meta({ value: "dir" }),
  ...endpointFlags,
  ...localModelFlags,
  data: z.string().optional().describe("your own rows {id, question, ground_truth, ...} instead of the benchmark's data").meta({ value: "file.jsonl" }),
  split: z.string().default("test").describe("dataset split to evaluate").meta({ value: "name" }),
  cookbook: z.string().optional().describe("agent flow + evaluator: a built-in name or a module path (default: the benchmark's)").meta({ value: "name|path" }),
  limit: z.coerce.number().int().positive().optional().describe("evaluate only the first n tasks").meta({ value: "n" }),
  attempts: z.coerce.number().int().positive().default(1).describe("attempts per task (for pass@k and maj@k)").meta({ short: "n", value: "n" }),
  concurrency: concurrencyFlag.default(16).describe("episodes in flight at once"),
  ...samplingFlags,
  seed: seedFlag.nonnegative().default(0).describe("run seed; each episode samples with a seed derived from it, the task id and the attempt"),
  timeout: z.coerce.number().positive().default(600).describe("time limit per episode; an episode over it is scored wrong").meta({ value: "seconds" }),
  maxRetries: z.coerce.number().int().nonnegative().default(8).describe("retries per model call on 429/408/409/5xx/timeouts/resets").meta({ value: "n" }),
  retryBudget: z.coerce.number().int().nonnegative().default(10_000).describe("retries allowed across the whole run").meta({ value: "n" }),
  out: outFlag.describe("run directory (default runs/<benchmark>-<timestamp>)"),
  resume: z.boolean().default(false).describe("finish the run in --out: only missing (task, attempt) pairs run; refuses if the config differs"),
  failUnder: z.coerce.number().min(0).max(1).optional().describe("exit 1 if accuracy (0..1) ends below this").meta({ value: "accuracy" }),
  agent: z.string().optional().describe("terminal tasks: oracle, nop, bash, terminus-2 or llm-in-sandbox (same as --set agent=…)").meta({ value: "name" }),
  allowNetwork: z.boolean().default(false).describe("terminal tasks: give the sandbox network where the task allows it (off by default)"),
  ...sandboxFlags,
  set: z.array(z.string()).default([]).describe("a cookbook option, repeatable (finqa: beta, judgeModel); a cookbook without options refuses it").meta({ value: "key=value" }),
  rerank: commaList(SelectionMethodSchema)
    .optional()
    .describe(`after each task's attempts, pick one with these selection methods (comma list: ${SelectionMethodSchema.options.join(", ")}); reports rerank@1`)
    .meta({ value: "methods" }),
  budget: z.coerce.number().positive().default(2).describe("judge calls per task for --rerank, as a multiple of the attempts (V1's B = m·N)").meta({ value: "m" }),
  cache: z
    .union([z.literal(true), z.literal("always")])
    .optional()
    .describe(
      "answer repeated requests from the response cache in $RLLM_HOME/cache/ (also RLLM_CACHE=1). Requests sampled at temperature > 0 " +
        "(or the server default) without a seed are sent every time, since repeated sampling is usually the point; `--cache always` caches them too " +
        "(rllm eval seeds each episode's requests from --seed, so its own calls are cached either way)",
    )
    .meta({ flags: "--cache [always]" }),
  cacheTtl: z.string().optional().describe("cached replies older than this (90s, 30m, 12h, 7d) are fetched again").meta({ value: "duration" }),
  rpm: z.coerce.number().positive().optional().describe("requests per minute, shared by every episode (at most rpm/60 in any second)").meta({ value: "n" }),
  tpm: z.coerce.number().positive().optional().describe("tokens per minute, shared by every episode (at most tpm/60 in any second, by estimate)").meta({ value: "n" }),
  prices: z.string().optional().describe("model prices in $ per million tokens: {\"<model>\": {input, output, cachedInput}}; else the --endpoint's prices").meta({ value: "prices.json" }),
  maxCost: z.coerce.number().positive().optional().describe("stop starting episodes before the spend would pass this many dollars (resumable)").meta({ value: "dollars" }),
  list: z.boolean().default(false).describe("list every benchmark by kind, with its size, licence, grader and whether it is pulled, and exit"),
  config: z.string().optional().describe("run an eval set: models × benchmarks from a JSON or YAML file, one run folder per cell under --out").meta({ value: "evalset.yaml" }),
});
/** `rllm eval`'s parsed flags. */
export type EvalFlags = z.infer<typeof EvalFlagsSchema>;
