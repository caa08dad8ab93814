/** The `math` cookbook: one question, step-by-step reasoning, a final \boxed{} answer graded by the math verifier. */
import { singleTurnMathCookbook } from "./single-turn-math-cookbook.js";

/** Single-turn math solving. */
export const mathCookbook = singleTurnMathCookbook({
  name: "math",
  description: "Single-turn math solving: reasoning then a final \\boxed{} answer, graded by the math verifier.",
  systemPrompt: "Solve the problem step by step. Put your final answer within \\boxed{}.",
});
