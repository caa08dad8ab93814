/** The `choice` GradeVerifier behind `rllm grade --verifier choice`: rows {id?, response, choices, ground_truth (a letter)}. */
import { z } from "zod";
import { parseSetOptions } from "rllm-ts/core";
import type { GradeVerifier } from "../grade-verifier.js";
import { gradeChoice } from "./grade-choice.js";

export const ChoiceRowSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    response: z.string(),
    /** The options' texts, in letter order (A first). */
    choices: z.array(z.string()).min(2).max(26),
    ground_truth: z.string().regex(/^\s*[A-Za-z]\s*$/, "a single option letter"),
  })
  .passthrough()
  .refine((row) => row.ground_truth.trim().toUpperCase().charCodeAt(0) - 65 < row.choices.length, { path: ["ground_truth"], message: "names no option" });
export type ChoiceRow = z.infer<typeof ChoiceRowSchema>;

export const choiceGradeVerifier: GradeVerifier<ChoiceRow> = {
  name: "choice",
  description: "Multiple choice: the reply's last explicit answer letter (\\boxed{C}, 'The answer is (C)', 'Answer: C', **C**, or an option's text) against ground_truth; a tie or no answer scores 0.",
  rowSchema: ChoiceRowSchema,
  async gradeRows(rows, options) {
    parseSetOptions(z.object({}).strict(), options.flags, 'verifier "choice"');
    return rows.map((row, index) => {
      const score = gradeChoice(row.response, row.choices, row.ground_truth);
      options.onProgress?.(index + 1, rows.length);
      return score;
    });
  },
};
