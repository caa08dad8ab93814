/** set-summary.json: an eval set's comparison table, one row per cell (model × benchmark), as `rllm eval --config` writes it. */
import { z } from "zod";

/** One cell's figures; absent figures are null (a cell never run has only its labels and status). */
export const SetComparisonRowSchema = z.object({
  model: z.string(),
  benchmark: z.string(),
  /** The cell's run folder, relative to the set folder. */
  directory: z.string(),
  status: z.enum(["complete", "incomplete", "cancelled", "not run"]),
  accuracy: z.object({ mean: z.number(), stderr: z.number(), n: z.number().int().nonnegative() }).nullable(),
  "pass@k": z.record(z.string(), z.number()),
  "rerank@1": z.record(z.string(), z.number().nullable()),
  cost: z.number().nullable(),
});
export type SetComparisonRow = z.infer<typeof SetComparisonRowSchema>;

/** The whole file: its format version and the rows in matrix order. */
export const SetSummarySchema = z.object({
  formatVersion: z.number().int().min(1),
  cells: z.array(SetComparisonRowSchema),
});
export type SetSummary = z.infer<typeof SetSummarySchema>;
