/** The `geo3k` cookbook: a diagram and a question in one vision prompt, a final \boxed{} answer graded by the math verifier. */
import type { Cookbook } from "../../src/core/cookbook.js";
import { singleTurnFlow, systemThenInstruction } from "../../src/engine/single-turn-flow.js";
import { evaluateMathEpisode, mathAnswerOf } from "../math/math-evaluator.js";

const systemPrompt =
  "You are given a geometry problem with its diagram. Reason step by step, then give the final answer " +
  "(a number or exact expression, angles in degrees) within \\boxed{}.";

export const geo3kCookbook: Cookbook = {
  name: "geo3k",
  description: "Geometry3K vision flow: diagram images interleaved with the problem text, graded by the math verifier.",
  flow: singleTurnFlow(systemThenInstruction(systemPrompt)),
  evaluate: evaluateMathEpisode,
  extractAnswer: mathAnswerOf,
};
