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
  /** Verifier-specific structured details (per-test verdicts); only `rllm grade` writes them. */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type Score = z.infer<typeof ScoreSchema>;

/** A graded answer: `value` is the reward, `isCorrect` the pass/fail verdict. */
export function scored(value: number, isCorrect: boolean, fields: Omit<Partial<Score>, "value" | "isCorrect" | "status"> = {}): Score {
  return { ...fields, value, isCorrect, status: "scored", signals: fields.signals ?? {} };
}

/** An answer nothing could grade; `explanation` says why. Kept out of every accuracy. */
export function unscored(explanation: string, fields: Omit<Partial<Score>, "value" | "isCorrect" | "status" | "explanation"> = {}): Score {
  return { ...fields, value: 0, isCorrect: false, status: "unscored", explanation, signals: fields.signals ?? {} };
}
