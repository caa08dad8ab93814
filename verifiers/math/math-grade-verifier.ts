/** The `math` GradeVerifier behind `rllm grade --verifier math`: rows {id?, response, ground_truth, choices?}. */
import { z } from "zod";
import { parseSetOptions, scored, unscored, type Score } from "rllm-ts/core";
import type { GradeVerifier } from "../grade-verifier.js";
import { gradeMathBatch } from "./grade-math-batch.js";
import { defaultMathTimeoutMs, mathGradingPool } from "./math-pool.js";
import type { MathGroundTruth } from "./grade-math-under-policy.js";
import { MathPolicySchema } from "./math-policy.js";
import type { PooledMathVerdict } from "./math-worker-pool.js";

export const MathRowSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    response: z.string(),
    ground_truth: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])).min(1)]),
    /** Geo3K-style answer choices (A, B, C...), so that a letter can match the choice's value. */
    choices: z.array(z.string()).optional(),
  })
  .passthrough();
export type MathRow = z.infer<typeof MathRowSchema>;

// Command-line flags (`--set key=value`): the policy flags plus the time limit per check.
const MathFlagsSchema = MathPolicySchema.extend({
  timeoutMs: z.coerce.number().int().positive().default(defaultMathTimeoutMs),
}).strict();

/** Whether a ground truth holds nothing to compare against (an empty string, or only empty strings). */
export function isEmptyGroundTruth(groundTruth: MathGroundTruth): boolean {
  const truths = Array.isArray(groundTruth) ? groundTruth : [groundTruth];
  return truths.every((truth) => String(truth).trim() === "");
}

/** A math verdict as a Score: a check past its time limit is a wrong answer (signal timedOut); a failure of the pool itself is unscored (signal infraError). */
export function mathVerdictScore(verdict: PooledMathVerdict): Score {
  const signals = { timedOut: verdict.timedOut ? 1 : 0 };
  const fields = { ...(verdict.extracted !== undefined ? { answer: verdict.extracted } : {}), signals };
  if (verdict.infraError) return unscored(verdict.reason, { ...fields, signals: { ...signals, infraError: 1 } });
  return scored(verdict.reward, verdict.correct, { ...fields, explanation: verdict.reason });
}

export const mathGradeVerifier: GradeVerifier<MathRow> = {
  name: "math",
  description: "Math answers: last \\boxed{} (or answer phrase) against the ground truth, equivalent up to form, order, units and rounding policy.",
  rowSchema: MathRowSchema,
  async gradeRows(rows, options, context) {
    const flags = parseSetOptions(MathFlagsSchema, options.flags, 'verifier "math"');
    const { timeoutMs, ...policy } = flags;
    const gradable = rows.filter((row) => !isEmptyGroundTruth(row.ground_truth));
    const jobs = gradable.map((row) => ({ response: row.response, groundTruth: row.ground_truth, choices: row.choices }));
    // The run's threads (started as `rllm grade` started), or for a time limit of its own, threads with that limit.
    const pool = await context.pool(mathGradingPool(timeoutMs));
    const verdicts = await gradeMathBatch(jobs, { policy, pool, onProgress: options.onProgress });
    const scores = new Map(gradable.map((row, index) => [row, mathVerdictScore(verdicts[index]!)]));
    return rows.map((row) => scores.get(row) ?? unscored("the ground truth is empty"));
  },
};
