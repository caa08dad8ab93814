/** `rllm compare <runA> <runB>`: its help text and arguments (light, for help; the flags are in compare-flags.ts); the comparison is in compare.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";
import { CompareFlagsSchema } from "./compare-flags.js";

/** `rllm compare`. */
export const compareCommand = defineCommand({
  name: "compare",
  description:
    "Compare two runs of one benchmark task by task, on the tasks both scored: accuracy difference B − A with its\n" +
    "paired standard error and 95% CI, McNemar's exact test on the tasks one run solved and the other did not, and\n" +
    "the lists of those tasks. A task counts as solved when at least half its scored attempts are correct.",
  arguments: z.tuple([
    z.string().describe("run directory A (the baseline)").meta({ value: "runA" }),
    z.string().describe("run directory B").meta({ value: "runB" }),
  ]),
  flags: CompareFlagsSchema,
  loadAction: async () => (await import("./compare.js")).compareAction,
});
