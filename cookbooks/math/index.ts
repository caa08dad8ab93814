/** The `math` cookbook: one question, step-by-step reasoning, a final \boxed{} answer graded by the math verifier. */
import type { Cookbook } from "../../src/core/cookbook.js";
import { singleTurnFlow, systemThenInstruction } from "../../src/engine/single-turn-flow.js";
import { evaluateMathEpisode, mathAnswerOf } from "./math-evaluator.js";

const systemPrompt = "Solve the problem step by step. Put your final answer within \\boxed{}.";

export const mathCookbook: Cookbook = {
  name: "math",
  description: "Single-turn math solving: reasoning then a final \\boxed{} answer, graded by the math verifier.",
  flow: singleTurnFlow(systemThenInstruction(systemPrompt)),
  evaluate: evaluateMathEpisode,
  extractAnswer: mathAnswerOf,
};
