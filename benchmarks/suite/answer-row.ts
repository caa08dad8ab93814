/** One final-answer problem (AIME, HMMT, MATH-500, GSM8K) as cached on disk: the problem and its reference answer. */
import { z } from "zod";
import { RowIdSchema } from "rllm-ts/core";

export const AnswerRowSchema = z
  .object({
    id: RowIdSchema,
    /** The problem as the source states it (the benchmark adds its standard instruction around it). */
    question: z.string().min(1),
    /** The reference final answer the math verifier compares with. */
    ground_truth: z.union([z.string().min(1), z.number()]).transform(String),
    /** Where the row came from (the bundled sample notes repository, commit and licence). */
    source: z.string().optional(),
  })
  .passthrough();
export type AnswerRow = z.infer<typeof AnswerRowSchema>;
