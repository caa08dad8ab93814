/** Turns a run's episodes into summary.json: accuracy with its interval, pass@k, maj@k, errors, tokens, latency. */
import type { Episode } from "../core/episode.js";
import { accuracyStats, type AccuracyStats } from "./accuracy.js";
import { meanPassAtK, reportedKs } from "./pass-at-k.js";
import { meanMajorityAtK } from "./majority-at-k.js";
import { percentile } from "./percentile.js";
import type { RerankMethodSummary } from "./rerank-method-summary.js";

export interface RunSummary {
  counts: { tasks: number; episodes: number; scored: number; attemptsPerTask: number; expectedEpisodes: number };
  /** infra errors are excluded from every score; model errors count as wrong answers. */
  errors: { infra: number; model: number };
  metrics: {
    accuracy: AccuracyStats;
    "pass@k": Record<string, number>;
    "maj@k"?: Record<string, number>;
    reward: { mean: number };
    signals: Record<string, number>;
    [extra: string]: unknown;
  };
  tokens: { prompt: number; completion: number; total: number };
  latency: { p50Ms: number; p95Ms: number };
  /** Per selection method, when the run reranks (`rllm eval --rerank`). */
  rerank?: Record<string, RerankMethodSummary>;
}

/** Summarises episodes (one per (task, attempt) pair) of a run planned for `taskCount` tasks × `attempts`. */
export function summarizeRun(episodes: readonly Episode[], taskCount: number, attempts: number): RunSummary {
  const scored = episodes.filter((episode) => episode.errorClass !== "infra_error");
  const byTask = groupByTask(scored);
  const perTask = [...byTask.values()];

  const passAtK: Record<string, number> = {};
  for (const k of reportedKs(attempts)) {
    const result = meanPassAtK(perTask.map((attemptsOfTask) => ({ n: attemptsOfTask.length, c: attemptsOfTask.filter((e) => e.isCorrect).length })), k);
    if (result.tasks > 0) passAtK[String(k)] = result.value;
  }

  const hasComparableAnswers = scored.some((episode) => typeof episode.artifacts.comparableAnswer === "string");
  let majorityAtK: Record<string, number> | undefined;
  if (hasComparableAnswers && attempts > 1) {
    majorityAtK = {};
    const answered = perTask.map((attemptsOfTask) =>
      attemptsOfTask.map((episode) => ({
        attempt: episode.attempt,
        answer: typeof episode.artifacts.comparableAnswer === "string" ? episode.artifacts.comparableAnswer : undefined,
        isCorrect: episode.isCorrect,
      })),
    );
    for (const k of reportedKs(attempts).filter((k) => k > 1)) {
      const result = meanMajorityAtK(answered, k);
      if (result.tasks > 0) majorityAtK[String(k)] = result.value;
    }
  }

  const prompt = episodes.reduce((sum, episode) => sum + episode.usage.promptTokens, 0);
  const completion = episodes.reduce((sum, episode) => sum + episode.usage.completionTokens, 0);
  const latencies = scored.map((episode) => episode.timings.totalMs).filter((value): value is number => typeof value === "number");

  return {
    counts: {
      tasks: taskCount,
      episodes: episodes.length,
      scored: scored.length,
      attemptsPerTask: attempts,
      expectedEpisodes: taskCount * attempts,
    },
    errors: {
      infra: episodes.filter((episode) => episode.errorClass === "infra_error").length,
      model: episodes.filter((episode) => episode.errorClass === "model_error").length,
    },
    metrics: {
      accuracy: accuracyStats(perTask.map((attemptsOfTask) => attemptsOfTask.map((episode) => episode.isCorrect))),
      "pass@k": passAtK,
      ...(majorityAtK ? { "maj@k": majorityAtK } : {}),
      reward: { mean: mean(scored.map((episode) => episode.reward ?? 0)) },
      signals: averageSignals(scored),
    },
    tokens: { prompt, completion, total: prompt + completion },
    latency: { p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) },
  };
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

/** Mean of each signal over the episodes that report it. */
function averageSignals(episodes: readonly Episode[]): Record<string, number> {
  const sums = new Map<string, { total: number; count: number }>();
  for (const episode of episodes) {
    for (const [name, value] of Object.entries(episode.signals)) {
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
