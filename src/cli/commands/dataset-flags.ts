/** `rllm dataset list | pull | show | from-eval | register | remove`: the flag schemas and their types, read by both the definition (dataset-command.ts) and the action. */
import { z } from "zod";
import { SelectModeSchema } from "../../datasets/curation/select-episodes.js";
import { seedFlag } from "../shared-flags.js";

/** `rllm dataset show`'s flags. */
export const ShowFlagsSchema = z.object({
  split: z.string().default("test").describe("split").meta({ value: "name" }),
  rows: z.coerce.number().int().positive().default(3).describe("how many tasks").meta({ short: "n", value: "n" }),
  data: z.string().optional().describe("show your own rows instead").meta({ value: "file.jsonl" }),
});
/** `rllm dataset show`'s parsed flags. */
export type ShowFlags = z.infer<typeof ShowFlagsSchema>;

/** `rllm dataset from-eval`'s flags. */
export const FromEvalFlagsSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only").describe("name of the dataset to write").meta({ value: "name" }),
  filter: z.string().optional().describe('keep tasks whose statistics pass, e.g. "0 < avg < 1" or "pass@4 >= 0.5 and tokens < 2000" (docs/sft.md)').meta({ value: "expression" }),
  select: SelectModeSchema.default("correct").describe("attempts kept per task: correct, best, best-n (see --best-n), shortest (correct), all").meta({ value: "mode" }),
  bestN: z.coerce.number().int().positive().default(2).describe("n for --select best-n").meta({ value: "n" }),
  maxPerTask: z.coerce.number().int().positive().optional().describe("at most n rows per task").meta({ value: "n" }),
  minReward: z.coerce.number().optional().describe("drop attempts whose reward is below this").meta({ value: "reward" }),
  dedup: z.boolean().default(false).describe("drop a task's attempts whose answer text repeats an earlier one (case and spacing ignored)"),
  trajectory: z.string().default("solver").describe("solver (the agent's turns) or judge (tournament verdicts whose winner was truly correct)").meta({ value: "name" }),
  valFraction: z.coerce.number().min(0).max(1).default(0).describe("share of tasks whose rows go to the val split").meta({ value: "fraction" }),
  seed: seedFlag.default(0).describe("seeds the train/val split"),
  dryRun: z.boolean().default(false).describe("print the counts and a sample row; write nothing"),
  force: z.boolean().default(false).describe("mix runs of different benchmarks; replace an existing dataset of the same name"),
});
/** `rllm dataset from-eval`'s parsed flags. */
export type FromEvalFlags = z.infer<typeof FromEvalFlagsSchema>;

/** `rllm dataset register`'s flags. */
export const RegisterFlagsSchema = z.object({
  file: z.string().describe("rows: .jsonl, .json (an array), .csv (with a header) or .parquet").meta({ value: "rows-file" }),
  split: z.string().default("train").describe("split the rows become").meta({ value: "name" }),
  benchmark: z.string().optional().describe("built-in benchmark whose cookbook runs the rows in rllm eval (default: qa)").meta({ value: "name" }),
  force: z.boolean().default(false).describe("replace an existing dataset of the same name (a new --split joins a registered dataset without it)"),
});
/** `rllm dataset register`'s parsed flags. */
export type RegisterFlags = z.infer<typeof RegisterFlagsSchema>;
