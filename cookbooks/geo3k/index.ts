/** The `geo3k` cookbook: a diagram and a question in one vision prompt, a final \boxed{} answer graded by the math verifier. */
import { singleTurnMathCookbook } from "../math/single-turn-math-cookbook.js";

/** Geometry3K: the task's instruction carries the diagram images beside the problem text. */
export const geo3kCookbook = singleTurnMathCookbook({
  name: "geo3k",
  description: "Geometry3K vision flow: diagram images interleaved with the problem text, graded by the math verifier.",
  systemPrompt:
    "You are given a geometry problem with its diagram. Reason step by step, then give the final answer " +
    "(a number or exact expression, angles in degrees) within \\boxed{}.",
});
