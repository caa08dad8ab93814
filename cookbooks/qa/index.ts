/** The `qa` cookbook: one question, one reply, graded by normalised exact match of the final answer. */
import { episodeAnswer, scored, unscored, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow, systemThenInstruction } from "rllm-ts/flows";
import { extractFinalAnswer, normalizeAnswer } from "./extract-final-answer.js";

const systemPrompt = "Answer the question. Put your final answer on the last line, or inside \\boxed{}.";

/** Final answer of the episode's solver reply, normalised for comparison. */
function finalAnswer(episodeOutput: string): string {
  return normalizeAnswer(extractFinalAnswer(episodeOutput));
}

export const qaCookbook: Cookbook = {
  name: "qa",
  description: "Single-turn question answering, graded by normalised exact match (last \\boxed{} or last line).",
  flow: singleTurnFlow(systemThenInstruction(systemPrompt)),
  evaluate(task, episode) {
    const expected = normalizeAnswer(String(task.metadata.ground_truth ?? ""));
    if (expected === "") return unscored(`task ${task.id} has no ground_truth`);
    const answer = finalAnswer(episodeAnswer(episode));
    const isCorrect = answer !== "" && answer === expected;
    return scored(isCorrect ? 1 : 0, isCorrect, { answer, explanation: isCorrect ? "exact match" : `expected "${expected}"` });
  },
  extractAnswer(_task, episode) {
    const answer = finalAnswer(episodeAnswer(episode));
    return answer === "" ? undefined : answer;
  },
};
