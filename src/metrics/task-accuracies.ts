/** Per-task accuracy of a run's episodes: what paired comparisons between runs are made of. */
import type { Episode } from "../core/episode.js";

/** Share of each task's scored attempts that are correct, by task id in first-seen order; tasks with none scored are left out. */
export function taskAccuracies(episodes: readonly Episode[]): Map<string, number> {
  const counts = new Map<string, { scored: number; correct: number }>();
  for (const episode of episodes) {
    if (episode.score.status !== "scored") continue;
    const count = counts.get(episode.taskId) ?? { scored: 0, correct: 0 };
    count.scored += 1;
    if (episode.score.isCorrect) count.correct += 1;
    counts.set(episode.taskId, count);
  }
  return new Map([...counts].map(([taskId, count]) => [taskId, count.correct / count.scored]));
}
