/** `rllm eval <benchmark>`: its help text and flag schema (light, for help); the run itself is in eval.ts. */
import { z } from "zod";
import { benchmarks } from "../../../benchmarks/registry.js";
import { SelectionMethodSchema } from "../../tournament/selection-methods.js";
import { defineCommand } from "../command-definition.js";
import { commaList, concurrencyFlag, endpointFlags, outFlag, samplingFlags, seedFlag } from "../shared-flags.js";

/** `rllm eval`'s flags. */
export const EvalFlagsSchema = z.object({
  ...endpointFlags,
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
  set: z.array(z.string()).default([]).describe("a cookbook option, repeatable (finqa: beta, judgeModel); a cookbook without options refuses it").meta({ value: "key=value" }),
  rerank: commaList(SelectionMethodSchema)
    .optional()
    .describe(`after each task's attempts, pick one with these selection methods (comma list: ${SelectionMethodSchema.options.join(", ")}); reports rerank@1`)
    .meta({ value: "methods" }),
  budget: z.coerce.number().positive().default(2).describe("judge calls per task for --rerank, as a multiple of the attempts (V1's B = m·N)").meta({ value: "m" }),
});
/** `rllm eval`'s parsed flags. */
export type EvalFlags = z.infer<typeof EvalFlagsSchema>;

/** `rllm eval`. */
export const evalCommand = defineCommand<typeof EvalFlagsSchema, [string]>({
  name: "eval",
  description:
    "Run a benchmark: every task × attempt through the cookbook's agent flow, graded, written to <out>/episodes.jsonl as it goes,\n" +
    "summarised in <out>/summary.json. Without --base-url the embedded tiny model answers (offline).",
  arguments: [{ name: "<benchmark>", description: `benchmark name (${benchmarks.names().join(", ")}), or a folder of terminal tasks (<path> or harbor:<path>)` }],
  flags: EvalFlagsSchema,
  loadAction: async () => (await import("./eval.js")).evalAction,
});
