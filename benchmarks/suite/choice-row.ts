/** One multiple-choice question (GPQA, MMLU-Pro) as cached on disk: the question, its options in letter order, the correct letter. */
import { z } from "zod";
import { RowIdSchema } from "rllm-ts/core";

export const ChoiceRowSchema = z
  .object({
    id: RowIdSchema,
    question: z.string().min(1),
    /** The options' texts: A first. */
    choices: z.array(z.string()).min(2).max(10),
    /** The correct option's letter. */
    ground_truth: z.string().regex(/^[A-J]$/, "one letter A-J"),
    source: z.string().optional(),
  })
  .passthrough()
  .refine((row) => row.ground_truth.charCodeAt(0) - 65 < row.choices.length, { path: ["ground_truth"], message: "names no option" });
export type ChoiceRow = z.infer<typeof ChoiceRowSchema>;
