/** `rllm dataset list | pull <name> | show <name>`: their help text and flag schema (light, for help); the work is in dataset.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";

/** `rllm dataset show`'s flags. */
export const ShowFlagsSchema = z.object({
  split: z.string().default("test").describe("split").meta({ value: "name" }),
  rows: z.coerce.number().int().positive().default(3).describe("how many tasks").meta({ short: "n", value: "n" }),
  data: z.string().optional().describe("show your own rows instead").meta({ value: "file.jsonl" }),
});
/** `rllm dataset show`'s parsed flags. */
export type ShowFlags = z.infer<typeof ShowFlagsSchema>;

const nameArgument = [{ name: "<name>", description: "benchmark name" }];

/** `rllm dataset` and its subcommands. */
export const datasetCommand = defineCommand({
  name: "dataset",
  description: "Benchmark datasets: list them, pull the full data from Hugging Face into the cache ($RLLM_HOME, default ~/.cache/rllm-ts), show rows.",
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
  ],
});
