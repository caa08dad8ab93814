/** Scores a math episode with the math verifier (on the timed worker pool) and gives its comparable answer for maj@k. */
import type { Episode } from "../../src/core/episode.js";
import { episodeAnswer } from "../../src/core/episode-answer.js";
import { InfraError } from "../../src/core/errors/infra-error.js";
import { unscored, type Score } from "../../src/core/score.js";
import type { Task } from "../../src/core/task.js";
import { taskTarget } from "../../src/core/task-target.js";
import { extractMathAnswer, gradeMathWithTimeLimit } from "../../verifiers/math/index.js";
import { isEmptyGroundTruth, mathVerdictScore } from "../../verifiers/math/math-grade-verifier.js";

/** Reward 1 when the response is equivalent to `metadata.ground_truth` (choices in `metadata.choices` allow letters); unscored without one. */
export async function evaluateMathEpisode(task: Task, episode: Episode): Promise<Score> {
  const groundTruth = taskTarget(task);
  if (groundTruth === undefined || isEmptyGroundTruth(groundTruth)) return unscored(`task ${task.id} has no ground_truth`);
  const choices = Array.isArray(task.metadata.choices) ? task.metadata.choices.map(String) : undefined;
  const verdict = await gradeMathWithTimeLimit({ response: episodeAnswer(episode), groundTruth, choices });
  if (verdict.infraError) throw new InfraError(`task ${task.id}: ${verdict.reason}`);
  return mathVerdictScore(verdict);
}

/** The normalised answer for majority voting, or undefined when the response has none. */
export function mathAnswerOf(_task: Task, episode: Episode): string | undefined {
  return extractMathAnswer(episodeAnswer(episode));
}
