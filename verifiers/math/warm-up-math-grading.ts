/** Grades a few typical pairs so that the paths real checks take (parsing, exact rationals, sampling) are compiled. */
import { gradeMathUnderPolicy } from "./grade-math-under-policy.js";
import type { MathPolicy } from "./math-policy.js";

const pairs = [
  ["\\boxed{\\frac{1}{2}}", "0.5"],
  ["\\boxed{(x+1)^2}", "x^2+2x+1"],
  ["\\boxed{2\\sqrt{3}}", "3.46"],
] as const;

/** Runs the warm-up pairs under `policy`. */
export function warmUpMathGrading(policy: MathPolicy): void {
  for (const [response, truth] of pairs) gradeMathUnderPolicy(response, truth, policy);
}
