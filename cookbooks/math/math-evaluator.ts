/** Scores a math episode with the math verifier (on the timed worker pool) and gives its comparable answer for maj@k. */
import type { Episode } from "../../src/core/episode.js";
import type { EvalOutputInput } from "../../src/core/eval-output.js";
import type { Task } from "../../src/core/task.js";
import { extractMathAnswer, gradeMathWithTimeLimit } from "../../verifiers/math/index.js";

/** The solver's final text (the first trajectory's output). */
export function solverOutput(episode: Episode): string {
  const output = episode.trajectories[0]?.output;
  return typeof output === "string" ? output : "";
}

/** Reward 1 when the response is equivalent to `metadata.ground_truth` (choices in `metadata.choices` allow letters). */
export async function evaluateMathEpisode(task: Task, episode: Episode): Promise<EvalOutputInput> {
  const groundTruth = task.metadata.ground_truth;
  if (typeof groundTruth !== "string" && typeof groundTruth !== "number") {
    throw new Error(`task ${task.id}: metadata.ground_truth is missing`);
  }
  const choices = Array.isArray(task.metadata.choices) ? task.metadata.choices.map(String) : undefined;
  const verdict = await gradeMathWithTimeLimit({ response: solverOutput(episode), groundTruth, choices });
  return {
    reward: verdict.reward,
    isCorrect: verdict.correct,
    signals: { timedOut: verdict.timedOut ? 1 : 0 },
    answer: verdict.extracted,
    explanation: verdict.reason,
  };
}

/** The normalised answer for majority voting, or undefined when the response has none. */
export function mathAnswerOf(_task: Task, episode: Episode): string | undefined {
  return extractMathAnswer(solverOutput(episode));
}
