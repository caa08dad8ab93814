/** The `rllm rerank` input file: JSONL rows {id, problem, candidates} validated row by row. */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { assertUniqueIds, RowIdSchema } from "../core/dataset.js";
import { InputError, describeIssues } from "../core/errors/input-error.js";

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

/** Reads and validates every row; errors name the file, the line and the field. */
export function readRerankRows(file: string): RerankRow[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new InputError(`${file}: cannot read (${error instanceof Error ? error.message : String(error)})`);
  }
  const rows: RerankRow[] = [];
  const lines: number[] = [];
  const problems: string[] = [];
  // A UTF-8 byte-order mark would make line 1 invalid JSON.
  text.replace(/^\uFEFF/, "").split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      problems.push(`${file}:${index + 1}: not JSON (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    const parsed = RerankRowSchema.safeParse(raw);
    if (parsed.success) {
      rows.push(parsed.data);
      lines.push(index + 1);
    } else problems.push(describeIssues(file, index + 1, parsed.error));
  });
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  if (rows.length === 0) throw new InputError(`${file}: no rows`);
  // Output lines are keyed by id: two rows with one id could not be told apart.
  assertUniqueIds(file, rows, lines);
  return rows;
}

/** The text of a candidate. */
export function candidateText(candidate: RerankRow["candidates"][number]): string {
  return typeof candidate === "string" ? candidate : candidate.text;
}
