/**
 * The grader keeps each comparison's outcome by answer, ground truths, policy and choices (grade-math-under-policy.ts),
 * so a repeated answer is not parsed and evaluated again. A repeat must get exactly the verdict a first grading gets,
 * and nothing the outcome depends on may be left out of the key: each case grades in both orders.
 */
import { describe, expect, it } from "vitest";
import { gradeMathUnderPolicy } from "../../../verifiers/math/grade-math-under-policy.js";
import { defaultMathPolicy, MathPolicySchema } from "../../../verifiers/math/math-policy.js";

const noFraction = MathPolicySchema.parse({ percentMatchesFraction: false });

describe("the comparison memo", () => {
  it("keys on the policy: one answer gets each policy's verdict, in either order", () => {
    // Answers no other test in this file grades, so neither order starts from a kept outcome.
    expect(gradeMathUnderPolicy("\\boxed{37\\%}", "0.37", defaultMathPolicy).correct).toBe(true);
    expect(gradeMathUnderPolicy("\\boxed{37\\%}", "0.37", noFraction).correct).toBe(false);
    expect(gradeMathUnderPolicy("\\boxed{41\\%}", "0.41", noFraction).correct).toBe(false);
    expect(gradeMathUnderPolicy("\\boxed{41\\%}", "0.41", defaultMathPolicy).correct).toBe(true);
  });

  it("keys on the choices: a letter is graded against the choices its row lists", () => {
    expect(gradeMathUnderPolicy("\\boxed{B}", "17", defaultMathPolicy, ["12", "17"]).correct).toBe(true);
    expect(gradeMathUnderPolicy("\\boxed{B}", "17", defaultMathPolicy, ["17", "12"]).correct).toBe(false);
    expect(gradeMathUnderPolicy("\\boxed{B}", "17", defaultMathPolicy).correct).toBe(false);
  });

  it("keys on every ground truth of a list, not only the first", () => {
    expect(gradeMathUnderPolicy("\\boxed{9}", ["3", "9"], defaultMathPolicy).correct).toBe(true);
    expect(gradeMathUnderPolicy("\\boxed{9}", ["3", "8"], defaultMathPolicy).correct).toBe(false);
    expect(gradeMathUnderPolicy("\\boxed{9}", "3", defaultMathPolicy).correct).toBe(false);
  });

  it("gives a repeat the first grading's verdict, and each response its own extraction", () => {
    const first = gradeMathUnderPolicy("We get \\boxed{\\frac{2}{6}}.", "\\frac{1}{3}", defaultMathPolicy);
    const repeat = gradeMathUnderPolicy("We get \\boxed{\\frac{2}{6}}.", "\\frac{1}{3}", defaultMathPolicy);
    expect(repeat).toEqual(first);
    expect(first).toMatchObject({ correct: true, extracted: "\\frac{2}{6}" });
    // The same answer reached another way: same comparison, its own source in the reason.
    const phrased = gradeMathUnderPolicy("Simplifying, the answer is \\frac{2}{6}", "\\frac{1}{3}", defaultMathPolicy);
    expect(phrased.correct).toBe(true);
    expect(phrased.reason.split(": ")[0]).not.toBe(first.reason.split(": ")[0]);
    expect(phrased.reason.split(": ").slice(1)).toEqual(first.reason.split(": ").slice(1));
  });
});
