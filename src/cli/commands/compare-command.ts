/** `rllm compare <runA> <runB>`: its help text and flag schema (for help); the comparison is in compare.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";

/** `rllm compare`'s flags. */
export const CompareFlagsSchema = z.object({
  html: z.string().optional().describe("also write the comparison as a self-contained HTML page").meta({ value: "file" }),
  force: z.boolean().default(false).describe("compare runs of different benchmarks (tasks are paired by id)"),
});
/** `rllm compare`'s parsed flags. */
export type CompareFlags = z.infer<typeof CompareFlagsSchema>;

/** `rllm compare`. */
export const compareCommand = defineCommand<typeof CompareFlagsSchema, [string, string]>({
  name: "compare",
  description:
    "Compare two runs of one benchmark task by task, on the tasks both scored: accuracy difference B − A with its\n" +
    "paired standard error and 95% CI, McNemar's exact test on the tasks one run solved and the other did not, and\n" +
    "the lists of those tasks. A task counts as solved when at least half its scored attempts are correct.",
  arguments: [
    { name: "<runA>", description: "run directory A (the baseline)" },
    { name: "<runB>", description: "run directory B" },
  ],
  flags: CompareFlagsSchema,
  loadAction: async () => (await import("./compare.js")).compareAction,
});
