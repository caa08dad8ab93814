/** The `finqa` GradeVerifier behind `rllm grade --verifier finqa`: rows {id?, response, ground_truth, expected_tables?, accessed_tables?}. */
import { z } from "zod";
import { parseGradeFlags, type GradeVerdict, type GradeVerifier } from "../grade-verifier.js";
import { defaultTableAccessBeta, finqaReward } from "./finqa-reward.js";
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

/** Grades one row: reward = correctness + β · tableAccess; free-text gold answers are left ungraded (infraError, unscored). */
export function gradeFinqaRow(row: FinqaRow, beta: number): GradeVerdict {
  const grade = gradeFinqaAnswer(row.response, row.ground_truth);
  const access = tableAccess(row.expected_tables ?? [], row.accessed_tables ?? []);
  if (grade.verdict === "needs-judge") {
    // Not a wrong answer: nothing here can grade it, so it stays out of the accuracy (rllm eval --judge-model can).
    return { correct: false, reward: 0, reason: `unscored: ${grade.reason}`, infraError: true, details: { unscored: true, tableAccess: access } };
  }
  const correctness = grade.verdict === "correct" ? 1 : 0;
  return {
    correct: correctness === 1,
    reward: finqaReward(correctness, access, beta),
    extracted: grade.extracted,
    reason: grade.reason,
    details: { tableAccess: access },
  };
}

export const finqaGradeVerifier: GradeVerifier<FinqaRow> = {
  name: "finqa",
  description:
    "FinQA answers: the final number (%, $, million, (32) negatives) against the gold value with analyst rounding, or yes/no; " +
    "reward = correctness + beta · table access (--set beta=0.1).",
  rowSchema: FinqaRowSchema,
  async gradeRows(rows, options) {
    const flags = parseGradeFlags(FinqaFlagsSchema, options.flags);
    return rows.map((row, index) => {
      const verdict = gradeFinqaRow(row, flags.beta);
      options.onProgress?.(index + 1, rows.length);
      return verdict;
    });
  },
};
