/** Synchronous in-process math grading with any policy flags (no time limit: use gradeMathBatch for that). */
import { gradeMathUnderPolicy, type MathGroundTruth, type MathVerdict } from "./grade-math-under-policy.js";
import { defaultMathPolicy, MathPolicySchema, type MathPolicy, type MathPolicyInput } from "./math-policy.js";

export type { MathGroundTruth, MathVerdict } from "./grade-math-under-policy.js";

/** Grades `response` against `groundTruth`; `choices` (Geo3K) lets a choice letter match the choice's value. */
export function gradeMath(
  response: string,
  groundTruth: MathGroundTruth,
  policy: MathPolicyInput | MathPolicy = defaultMathPolicy,
  choices?: readonly string[],
): MathVerdict {
  const resolvedPolicy = policy === defaultMathPolicy ? defaultMathPolicy : MathPolicySchema.parse(policy);
  return gradeMathUnderPolicy(response, groundTruth, resolvedPolicy, choices);
}
