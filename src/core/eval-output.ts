/** What an Evaluator returns for one episode. */
import { z } from "zod";

export const EvalOutputSchema = z.object({
  reward: z.number(),
  isCorrect: z.boolean(),
  signals: z.record(z.string(), z.number()).default({}),
  /** The answer the evaluator extracted (for the log, and for maj@k). */
  answer: z.string().optional(),
  /** Why: e.g. "equivalent after normalisation", "timed out". */
  explanation: z.string().optional(),
});
export type EvalOutput = z.infer<typeof EvalOutputSchema>;
export type EvalOutputInput = z.input<typeof EvalOutputSchema>;
