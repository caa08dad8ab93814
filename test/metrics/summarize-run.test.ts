// summary.json counts unscored episodes and infrastructure failures apart and keeps both out of every accuracy.
import { describe, expect, it } from "vitest";
import { EpisodeSchema, type Episode } from "../../src/core/episode.js";
import { RunSummarySchema } from "../../src/core/run-summary.js";
import { scored, unscored, type Score } from "../../src/core/score.js";
import { summarizeRun } from "../../src/metrics/summarize-run.js";

const episode = (taskId: string, attempt: number, score: Score, fields: Record<string, unknown> = {}): Episode =>
  EpisodeSchema.parse({ id: `${taskId}:${attempt}`, taskId, attempt, score, timings: { totalMs: 10 }, ...fields });

// Task a: right then wrong. Task b: unscored twice (a free-text gold answer). Task c: right, then an infra failure.
const episodes = [
  episode("a", 0, scored(1, true), { artifacts: { comparableAnswer: "4" } }),
  episode("a", 1, scored(0, false), { artifacts: { comparableAnswer: "5" } }),
  episode("b", 0, unscored("the gold answer is free text", { signals: { tableAccess: 1 } }), { artifacts: { comparableAnswer: "7" } }),
  episode("b", 1, unscored("the gold answer is free text", { signals: { tableAccess: 0 } }), { artifacts: { comparableAnswer: "7" } }),
  episode("c", 0, scored(1, true), { artifacts: { comparableAnswer: "9" } }),
  episode("c", 1, unscored("network down"), { errorClass: "infra_error" }),
];

describe("summarizeRun", () => {
  const summary = summarizeRun(episodes, 3, 2);

  it("counts unscored episodes apart from scored ones and from infrastructure errors", () => {
    expect(summary.counts).toMatchObject({ episodes: 6, scored: 3, unscored: 2 });
    // The infra-error rate is over every episode of the run: 1 of 6.
    expect(summary.errors).toEqual({ infra: 1, model: 0, infraRate: 1 / 6 });
  });

  it("leaves unscored episodes out of accuracy, pass@k, maj@k and the mean reward", () => {
    expect(summary.metrics.accuracy).toMatchObject({ mean: 2 / 3, n: 3 });
    // Only task a has two scored attempts; task c has one, so it counts for pass@1 only.
    expect(summary.metrics["pass@k"]).toEqual({ "1": (0.5 + 1) / 2, "2": 1 });
    expect(summary.metrics["maj@k"]).toEqual({ "2": 1 });
    expect(summary.metrics.reward.mean).toBe(2 / 3);
  });

  it("still averages the signals of unscored episodes", () => {
    expect(summary.metrics.signals).toEqual({ tableAccess: 0.5 });
  });

  it("writes a summary that its own schema reads back, with the current format version", () => {
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
    expect(summary.formatVersion).toBe(2);
  });
});
