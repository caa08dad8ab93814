/** `rllm export <run-dir>`: the flag schema and its type, read by both the definition (export-command.ts) and the action. */
import { z } from "zod";
import { AdvantageEstimatorSchema } from "../../training/advantages/index.js";
import { ExportFormatSchema } from "../../training/export/export-episodes.js";
import { outFlag } from "../shared-flags.js";

/** `rllm export`'s flags. */
export const ExportFlagsSchema = z.object({
  format: ExportFormatSchema.describe("row format").meta({ value: "format" }),
  out: outFlag.describe("output file (default <run-dir>/export.<format extension>)").meta({ value: "file" }),
  estimator: AdvantageEstimatorSchema.default("grpo").describe("advantage estimator").meta({ value: "name" }),
  merge: z.enum(["prefix", "per_call"]).default("prefix").describe("prefix: merge turns whose prompt extends the previous one; per_call: one row per call").meta({ value: "mode" }),
  minGroupSize: z.coerce.number().int().positive().default(2).describe("drop groups with fewer trajectories").meta({ value: "n" }),
  dropUniform: z.boolean().default(false).describe("drop groups whose rewards are all equal"),
});
/** `rllm export`'s parsed flags. */
export type ExportFlags = z.infer<typeof ExportFlagsSchema>;
