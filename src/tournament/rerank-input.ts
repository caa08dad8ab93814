/** The `rllm rerank` input file: JSONL rows {id, problem, candidates} validated row by row. */
import { z } from "zod";
import { readJsonlRows, RowIdSchema } from "../core/dataset.js";

/**
 * A candidate: its text, or an object with the text and optional labels (isCorrect for rerank@1; answer, the final
 * answer normalised, for majority vote and for adaptive-duel's answer groups).
 */
export const RerankCandidateSchema = z.union([
  z.string(),
  z.object({ text: z.string(), isCorrect: z.boolean().optional(), answer: z.string().optional() }),
]);

export const RerankRowSchema = z.object({
  id: RowIdSchema,
  problem: z.string(),
  candidates: z.array(RerankCandidateSchema).min(1),
  /** This row's judge-call budget, instead of `--max-calls` / `--budget`. */
  maxCalls: z.number().int().nonnegative().optional(),
});
export type RerankRow = z.infer<typeof RerankRowSchema>;

/** Reads and validates every row; one error names the file, line and field of every bad row, repeated ids included. */
export function readRerankRows(file: string): RerankRow[] {
  // Output lines are keyed by id: two rows with one id could not be told apart.
  return readJsonlRows(file, RerankRowSchema, { uniqueIds: true });
}

/** The text of a candidate. */
export function candidateText(candidate: RerankRow["candidates"][number]): string {
  return typeof candidate === "string" ? candidate : candidate.text;
}
