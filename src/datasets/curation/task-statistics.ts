/** Per-task statistics over a task's scored attempts: the names the `--filter` language reads. */
import type { Episode } from "../../core/episode.js";
import { majorityIsCorrect } from "../../metrics/majority-at-k.js";
import { passAtK } from "../../metrics/pass-at-k.js";

/** One task's statistics; `signals` holds each signal's mean over the attempts that report it. */
export interface TaskStatistics {
  taskId: string;
  attempts: number;
  correct: number;
  /** Share of attempts graded correct. */
  avg: number;
  /** Mean score value (correctness plus any shaping). */
  reward: number;
  /** Mean prompt + completion tokens per attempt. */
  tokens: number;
  signals: Record<string, number>;
  /** The scored attempts, by attempt number, for pass@k and maj@k. */
  outcomes: { attempt: number; isCorrect: boolean; answer: string | undefined }[];
}

/** Names every run has, besides pass@k, maj@k and signal names (documented in docs/sft.md). */
export const BUILT_IN_FILTER_NAMES = ["avg", "reward", "correct", "attempts", "tokens"] as const;

/**
 * Statistics of each task over its scored episodes (infrastructure failures and unscored answers left out, as in
 * summary.json), in the order tasks first appear.
 */
export function taskStatistics(episodes: readonly Episode[]): TaskStatistics[] {
  const byTask = new Map<string, Episode[]>();
  for (const episode of episodes) {
    if (episode.errorClass === "infra_error" || episode.score.status !== "scored") continue;
    const list = byTask.get(episode.taskId) ?? [];
    list.push(episode);
    byTask.set(episode.taskId, list);
  }
  return [...byTask].map(([taskId, attempts]) => {
    const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
    const signalValues = new Map<string, number[]>();
    for (const episode of attempts) {
      for (const [name, value] of Object.entries({ ...episode.signals, ...episode.score.signals })) {
        signalValues.set(name, [...(signalValues.get(name) ?? []), value]);
      }
    }
    const correct = attempts.filter((episode) => episode.score.isCorrect).length;
    return {
      taskId,
      attempts: attempts.length,
      correct,
      avg: correct / attempts.length,
      reward: mean(attempts.map((episode) => episode.score.value)),
      tokens: mean(attempts.map((episode) => episode.usage.promptTokens + episode.usage.completionTokens)),
      signals: Object.fromEntries([...signalValues].map(([name, values]) => [name, mean(values)])),
      outcomes: attempts.map((episode) => {
        const answer = episode.artifacts.comparableAnswer;
        return { attempt: episode.attempt, isCorrect: episode.score.isCorrect, answer: typeof answer === "string" ? answer : undefined };
      }),
    };
  });
}

/** Whether `name` is one the filter language knows for these tasks: a built-in name, pass@k, maj@k or a signal. */
export function isKnownFilterName(name: string, tasks: readonly TaskStatistics[]): boolean {
  if ((BUILT_IN_FILTER_NAMES as readonly string[]).includes(name) || /^(pass|maj)@[1-9]\d*$/.test(name)) return true;
  return tasks.some((task) => name in task.signals);
}

/** The value of `name` for one task; NaN when the task cannot have it (pass@8 over 4 attempts, a signal it lacks). */
export function taskStatistic(task: TaskStatistics, name: string): number {
  const atK = /^(pass|maj)@([1-9]\d*)$/.exec(name);
  if (atK) {
    const k = Number(atK[2]);
    if (k > task.attempts) return Number.NaN;
    return atK[1] === "pass" ? passAtK(task.attempts, task.correct, k) : Number(majorityIsCorrect(task.outcomes, k));
  }
  if ((BUILT_IN_FILTER_NAMES as readonly string[]).includes(name)) return task[name as (typeof BUILT_IN_FILTER_NAMES)[number]];
  return task.signals[name] ?? Number.NaN;
}
