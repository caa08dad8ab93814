/**
 * The `prompted-math` cookbook: the task's instruction, already the benchmark's standard prompt (MathArena's for AIME
 * and HMMT, lm-eval's for GSM8K), is the one user message, with no system prompt of ours; the final answer is graded
 * by the math verifier.
 */
import type { Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { evaluateMathEpisode, mathAnswerOf } from "../math/math-evaluator.js";

/** Single-turn math under the benchmark's own prompt. */
export const promptedMathCookbook: Cookbook = {
  name: "prompted-math",
  description: "The benchmark's standard prompt as the only message (no system prompt); the final answer (\\boxed{} or 'The final answer is') graded by the math verifier.",
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction }]),
  evaluate: evaluateMathEpisode,
  extractAnswer: mathAnswerOf,
};
