/**
 * `rllm dataset list | pull | show | from-eval | register | remove`: their help text and arguments (light, for help;
 * the flags are in dataset-flags.ts); the work is in dataset.ts and dataset-from-eval.ts.
 */
import { z } from "zod";
import { defineCommand, defineCommandGroup, noArguments, noFlags } from "../command-definition.js";
import { FromEvalFlagsSchema, RegisterFlagsSchema, ShowFlagsSchema } from "./dataset-flags.js";

const nameArgument = z.tuple([z.string().describe("benchmark name").meta({ value: "name" })]);
const datasetNameArgument = z.tuple([z.string().describe("dataset name").meta({ value: "name" })]);

/** `rllm dataset` and its subcommands. */
export const datasetCommand = defineCommandGroup({
  name: "dataset",
  description:
    "Benchmark datasets: list them, pull the full data from Hugging Face into the cache ($RLLM_HOME, default ~/.cache/rllm-ts), show rows;\n" +
    "curate training rows from eval runs, register your own rows, remove them.",
  subcommands: [
    defineCommand({
      name: "list",
      description: "list every benchmark with its source, bundled sample and what is pulled",
      arguments: noArguments,
      flags: noFlags,
      loadAction: async () => (await import("./dataset.js")).listDatasets,
    }),
    defineCommand({
      name: "pull",
      description: "download the benchmark's parquet files from Hugging Face (HF_ENDPOINT selects a mirror) and cache every split as JSONL",
      arguments: nameArgument,
      flags: noFlags,
      loadAction: async () => (await import("./dataset.js")).pullDataset,
    }),
    defineCommand({
      name: "show",
      description: "print the first tasks of a benchmark as the agent will see them (pulled data if present, else the bundled sample)",
      arguments: nameArgument,
      flags: ShowFlagsSchema,
      loadAction: async () => (await import("./dataset.js")).showDataset,
    }),
    defineCommand({
      name: "from-eval",
      description:
        "curate training rows from eval runs into $RLLM_HOME/datasets/<name>/ (train.jsonl, val.jsonl, manifest.json " +
        "recording each row's run, episode and trajectory and the command); rows keep the sampler's token ids",
      arguments: z.tuple([z.array(z.string()).describe("run directories written by rllm eval").meta({ value: "run-dir" })]),
      flags: FromEvalFlagsSchema,
      loadAction: async () => (await import("./dataset-from-eval.js")).datasetFromEval,
    }),
    defineCommand({
      name: "register",
      description:
        "make your own rows a dataset that rllm eval, train and sft take by name: {id, question, ground_truth} rows " +
        "for eval and train, {id, messages} rows (last message the assistant's) for sft",
      arguments: datasetNameArgument,
      flags: RegisterFlagsSchema,
      loadAction: async () => (await import("./dataset.js")).registerDataset,
    }),
    defineCommand({
      name: "remove",
      description: "delete a registered or curated dataset",
      arguments: datasetNameArgument,
      flags: noFlags,
      loadAction: async () => (await import("./dataset.js")).removeDataset,
    }),
  ],
});
