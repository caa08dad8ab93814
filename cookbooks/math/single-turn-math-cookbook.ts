/** A single-turn cookbook graded by the math verifier: its own system prompt, then the task; the answer in \boxed{}. */
import type { Cookbook } from "../../src/core/cookbook.js";
import { singleTurnFlow, systemThenInstruction } from "../../src/engine/single-turn-flow.js";
import { evaluateMathEpisode, mathAnswerOf } from "./math-evaluator.js";

/** The cookbook `name` that asks with `systemPrompt` and grades the reply's final \boxed{} answer as math. */
export function singleTurnMathCookbook(options: { name: string; description: string; systemPrompt: string }): Cookbook {
  return {
    name: options.name,
    description: options.description,
    flow: singleTurnFlow(systemThenInstruction(options.systemPrompt)),
    evaluate: evaluateMathEpisode,
    extractAnswer: mathAnswerOf,
  };
}
