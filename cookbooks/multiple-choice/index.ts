/**
 * The `multiple-choice` cookbook: the task's instruction, already the benchmark's standard prompt (simple-evals' for
 * GPQA, MMLU-Pro's own for MMLU-Pro), is the one user message; the chosen letter is graded by the choice verifier.
 */
import { episodeAnswer, unscored, type Cookbook, type Task } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { extractChoice, gradeChoice } from "rllm-ts/verifiers/choice";

function optionsOf(task: Task): string[] | undefined {
  const choices = task.metadata.choices;
  return Array.isArray(choices) && choices.every((choice) => typeof choice === "string") ? choices : undefined;
}

/** Single-turn multiple choice under the benchmark's own prompt. */
export const multipleChoiceCookbook: Cookbook = {
  name: "multiple-choice",
  description: "The benchmark's standard prompt as the only message; the reply's last explicit answer letter must be the correct one (a tie or no answer scores 0).",
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction }]),
  async evaluate(task, episode) {
    const options = optionsOf(task);
    const correct = task.metadata.ground_truth;
    if (!options || typeof correct !== "string") return unscored(`task ${task.id} has no choices and ground_truth letter`);
    return gradeChoice(episodeAnswer(episode), options, correct);
  },
  // Majority voting counts the letters chosen; a tie or no answer casts no vote.
  extractAnswer(task, episode) {
    const options = optionsOf(task);
    if (!options) return undefined;
    const choice = extractChoice(episodeAnswer(episode), options.length, options);
    return choice.kind === "letter" ? choice.letter : undefined;
  },
};
