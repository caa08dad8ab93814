/** Scores a math episode with the math verifier (on the run's timed grading threads) and gives its comparable answer for maj@k. */
import { episodeAnswer, InfraError, taskTarget, unscored, type Episode, type EvaluatorContext, type Score, type Task } from "rllm-ts/core";
import { extractMathAnswer, isEmptyGroundTruth, mathPool, mathVerdictScore } from "rllm-ts/verifiers/math";

/** Reward 1 when the response is equivalent to `metadata.ground_truth` (choices in `metadata.choices` allow letters); unscored without one. */
export async function evaluateMathEpisode(task: Task, episode: Episode, context: EvaluatorContext): Promise<Score> {
  const groundTruth = taskTarget(task);
  if (groundTruth === undefined || isEmptyGroundTruth(groundTruth)) return unscored(`task ${task.id} has no ground_truth`);
  const choices = Array.isArray(task.metadata.choices) ? task.metadata.choices.map(String) : undefined;
  const verdict = await (await context.pool(mathPool)).grade({ response: episodeAnswer(episode), groundTruth, choices });
  if (verdict.infraError) throw new InfraError(`task ${task.id}: ${verdict.reason}`);
  return mathVerdictScore(verdict);
}

/** The normalised answer for majority voting, or undefined when the response has none. */
export function mathAnswerOf(_task: Task, episode: Episode): string | undefined {
  return extractMathAnswer(episodeAnswer(episode));
}
