/** Turns a run's episodes into summary.json: accuracy with its interval, pass@k, maj@k, unscored and error counts, tokens, latency. */
import type { Episode } from "../core/episode.js";
import { runFormatVersion, type RunSummary } from "../core/run-summary.js";
import { accuracyStats } from "./accuracy.js";
import { infraErrorRate } from "./infra-error-rate.js";
import { meanPassAtK, reportedKs } from "./pass-at-k.js";
import { meanMajorityAtK } from "./majority-at-k.js";
import { percentile } from "./percentile.js";
import { summarizeCost } from "./run-cost.js";
import type { ModelPrice } from "../core/price-table.js";

/** The summary.json record (its schema lives in src/core/run-summary.ts). */
export type { RunSummary };

/**
 * Summarises episodes (one per (task, attempt) pair) of a run planned for `taskCount` tasks × `attempts`.
 * Infra failures and unscored episodes are counted apart and left out of accuracy, pass@k, maj@k and the mean reward.
 */
export function summarizeRun(episodes: readonly Episode[], taskCount: number, attempts: number, price?: ModelPrice): RunSummary {
  const answered = episodes.filter((episode) => episode.errorClass !== "infra_error");
  const scored = answered.filter((episode) => episode.score.status === "scored");
  const perTask = [...groupByTask(scored).values()];

  const passAtK: Record<string, number> = {};
  for (const k of reportedKs(attempts)) {
    const result = meanPassAtK(perTask.map((attemptsOfTask) => ({ n: attemptsOfTask.length, c: attemptsOfTask.filter((e) => e.score.isCorrect).length })), k);
    if (result.tasks > 0) passAtK[String(k)] = result.value;
  }

  const hasComparableAnswers = scored.some((episode) => typeof episode.artifacts.comparableAnswer === "string");
  let majorityAtK: Record<string, number> | undefined;
  if (hasComparableAnswers && attempts > 1) {
    majorityAtK = {};
    const votes = perTask.map((attemptsOfTask) =>
      attemptsOfTask.map((episode) => ({
        attempt: episode.attempt,
        answer: typeof episode.artifacts.comparableAnswer === "string" ? episode.artifacts.comparableAnswer : undefined,
        isCorrect: episode.score.isCorrect,
      })),
    );
    for (const k of reportedKs(attempts).filter((k) => k > 1)) {
      const result = meanMajorityAtK(votes, k);
      if (result.tasks > 0) majorityAtK[String(k)] = result.value;
    }
  }

  const prompt = episodes.reduce((sum, episode) => sum + episode.usage.promptTokens, 0);
  const completion = episodes.reduce((sum, episode) => sum + episode.usage.completionTokens, 0);
  const withCachedCalls = answered.filter(hasCachedCall);
  const cachedCalls = episodes.reduce((sum, episode) => sum + cachedCallCount(episode), 0);
  const latencies = answered
    .filter((episode) => !hasCachedCall(episode))
    .map((episode) => episode.timings.totalMs)
    .filter((value): value is number => typeof value === "number");

  return {
    formatVersion: runFormatVersion,
    counts: {
      tasks: taskCount,
      episodes: episodes.length,
      scored: scored.length,
      unscored: answered.length - scored.length,
      attemptsPerTask: attempts,
      expectedEpisodes: taskCount * attempts,
    },
    errors: {
      infra: episodes.length - answered.length,
      model: episodes.filter((episode) => episode.errorClass === "model_error").length,
      infraRate: infraErrorRate(episodes.length - answered.length, episodes.length),
    },
    metrics: {
      accuracy: accuracyStats(perTask.map((attemptsOfTask) => attemptsOfTask.map((episode) => episode.score.isCorrect))),
      "pass@k": passAtK,
      ...(majorityAtK ? { "maj@k": majorityAtK } : {}),
      reward: { mean: mean(scored.map((episode) => episode.score.value)) },
      signals: averageSignals(answered),
    },
    tokens: { prompt, completion, total: prompt + completion },
    latency: { p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) },
    ...(cachedCalls > 0 ? { cache: { cachedCalls, episodesWithCachedCalls: withCachedCalls.length } } : {}),
    ...(price ? { cost: summarizeCost(episodes, price) } : {}),
  };
}

function cachedCallCount(episode: Episode): number {
  let count = 0;
  for (const trajectory of episode.trajectories) for (const step of trajectory.steps) if (step.cached) count += 1;
  return count;
}

function hasCachedCall(episode: Episode): boolean {
  return cachedCallCount(episode) > 0;
}

function groupByTask(episodes: readonly Episode[]): Map<string, Episode[]> {
  const groups = new Map<string, Episode[]>();
  for (const episode of episodes) {
    const group = groups.get(episode.taskId) ?? [];
    group.push(episode);
    groups.set(episode.taskId, group);
  }
  return groups;
}

/** Mean of each signal (the flow's and the score's) over the episodes that report it. */
function averageSignals(episodes: readonly Episode[]): Record<string, number> {
  const sums = new Map<string, { total: number; count: number }>();
  for (const episode of episodes) {
    for (const [name, value] of Object.entries({ ...episode.signals, ...episode.score.signals })) {
      const entry = sums.get(name) ?? { total: 0, count: 0 };
      entry.total += value;
      entry.count += 1;
      sums.set(name, entry);
    }
  }
  return Object.fromEntries([...sums].map(([name, { total, count }]) => [name, total / count]));
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
