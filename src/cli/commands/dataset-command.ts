/**
 * `rllm dataset list | pull | show | from-eval | register | remove`: their help text and flag schemas (light, for
 * help); the work is in dataset.ts and dataset-from-eval.ts.
 */
import { z } from "zod";
import { SelectModeSchema } from "../../datasets/curation/select-episodes.js";
import { defineCommand } from "../command-definition.js";
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
  force: z.boolean().default(false).describe("replace an existing dataset of the same name"),
});
/** `rllm dataset register`'s parsed flags. */
export type RegisterFlags = z.infer<typeof RegisterFlagsSchema>;

const nameArgument = [{ name: "<name>", description: "benchmark name" }];

/** `rllm dataset` and its subcommands. */
export const datasetCommand = defineCommand({
  name: "dataset",
  description:
    "Benchmark datasets: list them, pull the full data from Hugging Face into the cache ($RLLM_HOME, default ~/.cache/rllm-ts), show rows;\n" +
    "curate training rows from eval runs, register your own rows, remove them.",
  subcommands: [
    defineCommand({
      name: "list",
      description: "list every benchmark with its source, bundled sample and what is pulled",
      loadAction: async () => (await import("./dataset.js")).listDatasets,
    }),
    defineCommand<z.ZodObject, [string]>({
      name: "pull",
      description: "download the benchmark's parquet files from Hugging Face (HF_ENDPOINT selects a mirror) and cache every split as JSONL",
      arguments: nameArgument,
      loadAction: async () => (await import("./dataset.js")).pullDataset,
    }),
    defineCommand<typeof ShowFlagsSchema, [string]>({
      name: "show",
      description: "print the first tasks of a benchmark as the agent will see them (pulled data if present, else the bundled sample)",
      arguments: nameArgument,
      flags: ShowFlagsSchema,
      loadAction: async () => (await import("./dataset.js")).showDataset,
    }),
    defineCommand<typeof FromEvalFlagsSchema, string[]>({
      name: "from-eval",
      description:
        "curate training rows from eval runs into $RLLM_HOME/datasets/<name>/ (train.jsonl, val.jsonl, manifest.json " +
        "recording each row's run, episode and trajectory and the command); rows keep the sampler's token ids",
      arguments: [{ name: "<run-dir...>", description: "run directories written by rllm eval" }],
      flags: FromEvalFlagsSchema,
      loadAction: async () => (await import("./dataset-from-eval.js")).datasetFromEval,
    }),
    defineCommand<typeof RegisterFlagsSchema, [string]>({
      name: "register",
      description:
        "make your own rows a dataset that rllm eval, train and sft take by name: {id, question, ground_truth} rows " +
        "for eval and train, {id, messages} rows (last message the assistant's) for sft",
      arguments: [{ name: "<name>", description: "dataset name" }],
      flags: RegisterFlagsSchema,
      loadAction: async () => (await import("./dataset.js")).registerDataset,
    }),
    defineCommand<z.ZodObject, [string]>({
      name: "remove",
      description: "delete a registered or curated dataset",
      arguments: [{ name: "<name>", description: "dataset name" }],
      loadAction: async () => (await import("./dataset.js")).removeDataset,
    }),
  ],
});
