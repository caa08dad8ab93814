/** `rllm eval <benchmark>`: its help text (light, for help); the flag schema is in eval-flags.ts, the run itself in eval.ts. */
import { z } from "zod";
import { benchmarks } from "../../../benchmarks/registry.js";
import { defineCommand } from "../command-definition.js";
import { EvalFlagsSchema } from "./eval-flags.js";

/** `rllm eval`. */
export const evalCommand = defineCommand({
  name: "eval",
  description:
    "Run a benchmark: every task × attempt through the cookbook's agent flow, graded, written to <out>/episodes.jsonl as it goes,\n" +
    "summarised in <out>/summary.json. Without --base-url the embedded tiny model answers (offline).",
  arguments: z.tuple([z.string().optional().describe(`benchmark name (${benchmarks.names().join(", ")}), a registered dataset, or a folder of terminal tasks (<path> or harbor:<path>); none with --config`).meta({ value: "benchmark" })]),
  flags: EvalFlagsSchema,
  loadAction: async () => (await import("./eval.js")).evalAction,
});
