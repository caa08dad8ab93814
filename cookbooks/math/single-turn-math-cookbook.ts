/** A single-turn cookbook graded by the math verifier: its own system prompt, then the task; the answer in \boxed{}. */
import type { Cookbook } from "rllm-ts/core";
import { singleTurnFlow, systemThenInstruction } from "rllm-ts/flows";
import { mathPool } from "rllm-ts/verifiers/math";
import { evaluateMathEpisode, mathAnswerOf } from "./math-evaluator.js";

/** The cookbook `name` that asks with `systemPrompt` and grades the reply's final \boxed{} answer as math. */
export function singleTurnMathCookbook(options: { name: string; description: string; systemPrompt: string }): Cookbook {
  return {
    name: options.name,
    description: options.description,
    flow: singleTurnFlow(systemThenInstruction(options.systemPrompt)),
    evaluate: evaluateMathEpisode,
    // The run starts a grading thread as it starts, so the first episode's check does not wait for it.
    pools: [mathPool],
    extractAnswer: mathAnswerOf,
  };
}
