/** The `finqa` GradeVerifier behind `rllm grade --verifier finqa`: rows {id?, response, ground_truth, expected_tables?, accessed_tables?}. */
import { z } from "zod";
import { parseSetOptions, type Score } from "rllm-ts/core";
import type { GradeVerifier } from "../grade-verifier.js";
import { defaultTableAccessBeta } from "./finqa-reward.js";
import { finqaScore } from "./finqa-score.js";
import { gradeFinqaAnswer } from "./grade-finqa-answer.js";
import { tableAccess } from "./table-access.js";

export const FinqaRowSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    response: z.string(),
    ground_truth: z.union([z.string().min(1), z.number()]),
    expected_tables: z.array(z.string()).optional(),
    accessed_tables: z.array(z.string()).optional(),
  })
  .passthrough();
export type FinqaRow = z.infer<typeof FinqaRowSchema>;

// `--set beta=0.2`: weight of the table-access bonus.
const FinqaFlagsSchema = z.object({ beta: z.coerce.number().min(0).default(defaultTableAccessBeta) }).strict();

/** Grades one row: reward = correctness + β · tableAccess; a free-text gold answer is unscored (only `rllm eval finqa --set judgeModel=<model>` can grade it). */
export function gradeFinqaRow(row: FinqaRow, beta: number): Score {
  return finqaScore({
    reply: row.response,
    grade: gradeFinqaAnswer(row.response, row.ground_truth),
    tableAccess: tableAccess(row.expected_tables ?? [], row.accessed_tables ?? []),
    beta,
  });
}

export const finqaGradeVerifier: GradeVerifier<FinqaRow> = {
  name: "finqa",
  description:
    "FinQA answers: the final number (%, $, million, (32) negatives) against the gold value with analyst rounding, or yes/no; " +
    "reward = correctness + beta · table access (--set beta=0.1); free-text gold answers are unscored.",
  rowSchema: FinqaRowSchema,
  async gradeRows(rows, options) {
    const flags = parseSetOptions(FinqaFlagsSchema, options.flags, 'verifier "finqa"');
    return rows.map((row, index) => {
      const score = gradeFinqaRow(row, flags.beta);
      options.onProgress?.(index + 1, rows.length);
      return score;
    });
  },
};
