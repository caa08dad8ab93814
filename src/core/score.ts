/** The Score: what every Evaluator and every GradeVerifier returns for one answer, scored or explicitly unscored. */
import { z } from "zod";

export const ScoreStatusSchema = z.enum(["scored", "unscored"]);
/** "unscored": nothing could grade the answer (a free-text gold answer without a judge, undecodable tests); neither a 0 nor an infrastructure error. */
export type ScoreStatus = z.infer<typeof ScoreStatusSchema>;

export const ScoreSchema = z.object({
  /** The reward: correctness plus any shaping bonus (FinQA's β · tableAccess can lift it above 1); 0 when unscored. */
  value: z.number().finite(),
  isCorrect: z.boolean(),
  status: ScoreStatusSchema,
  /** What the grader took from the reply (a number, a program), for the log. */
  answer: z.string().optional(),
  /** Why: "equivalent after normalisation", "3 of 5 tests failed", "unscored: the gold answer is free text". */
  explanation: z.string().optional(),
  /** Named numbers the grader measured (tableAccess, passedTests, timedOut); averaged in summary.json. */
  signals: z.record(z.string(), z.number()).default({}),
  /** Verifier-specific structured details: per-test verdicts from `rllm grade --verifier code` and the deepcoder cookbook. */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type Score = z.infer<typeof ScoreSchema>;

/** The optional fields a Score may carry besides its verdict. */
export type ScoreFields = Omit<Partial<Score>, "value" | "isCorrect" | "status">;

/** A graded answer: `value` is the reward, `isCorrect` the pass/fail verdict. */
export function scored(value: number, isCorrect: boolean, fields: ScoreFields = {}): Score {
  return withFields(value, isCorrect, "scored", fields);
}

/** An answer nothing could grade; `explanation` says why. Kept out of every accuracy. */
export function unscored(explanation: string, fields: Omit<ScoreFields, "explanation"> = {}): Score {
  return withFields(0, false, "unscored", { ...fields, explanation });
}

// Field order is the order rllm grade writes them in: verdict first, then answer, explanation, signals, details.
// Assigned one by one rather than spread from conditional literals: every episode is scored, and those spreads
// showed in the engine's profile.
function withFields(value: number, isCorrect: boolean, status: ScoreStatus, fields: ScoreFields): Score {
  const score: Omit<Score, "signals"> & Partial<Pick<Score, "signals">> = { value, isCorrect, status };
  if (fields.answer !== undefined) score.answer = fields.answer;
  if (fields.explanation !== undefined) score.explanation = fields.explanation;
  score.signals = fields.signals ?? {};
  if (fields.details !== undefined) score.details = fields.details;
  return score as Score;
}
