import { describe, expect, it } from "vitest";
import { scored, unscored } from "../../src/core/score.js";
import { EpisodeSchema } from "../../src/core/episode.js";
import { comparePairedTasks } from "../../src/metrics/paired-comparison.js";
import { taskAccuracies } from "../../src/metrics/task-accuracies.js";

const byTask = (values: number[], prefix = "t") => new Map(values.map((value, index) => [`${prefix}${index}`, value]));

describe("comparePairedTasks", () => {
  it("gives the mean difference, its paired stderr and normal 95% CI (hand-computed)", () => {
    // d = B − A = [1, 1, 0, −1, 1]: mean 0.4; squared deviations .36 .36 .16 1.96 .36 = 3.2; s² = 0.8; SE = √(0.8/5) = 0.4.
    const comparison = comparePairedTasks(byTask([0, 0, 1, 1, 0]), byTask([1, 1, 1, 0, 1]));
    expect(comparison.tasks).toBe(5);
    expect(comparison.accuracyA).toBeCloseTo(0.4, 12);
    expect(comparison.accuracyB).toBeCloseTo(0.8, 12);
    expect(comparison.difference).toBeCloseTo(0.4, 12);
    expect(comparison.stderr).toBeCloseTo(0.4, 12);
    expect(comparison.ci95[0]).toBeCloseTo(0.4 - 1.959963984540054 * 0.4, 12);
    expect(comparison.ci95[1]).toBeCloseTo(0.4 + 1.959963984540054 * 0.4, 12);
    // Discordant: t0, t1, t4 solved by B alone, t3 by A alone: p = 2 · (1 + 4) / 16 = 0.625.
    expect(comparison.mcnemar).toEqual({ onlyA: 1, onlyB: 3, pValue: 0.625 });
    expect(comparison.solvedOnlyByA).toEqual(["t3"]);
    expect(comparison.solvedOnlyByB).toEqual(["t0", "t1", "t4"]);
  });

  it("pairs only the tasks both runs scored", () => {
    const a = new Map([["x", 1], ["y", 0], ["only-a", 1]]);
    const b = new Map([["y", 1], ["x", 1], ["only-b", 0]]);
    const comparison = comparePairedTasks(a, b);
    expect(comparison.tasks).toBe(2);
    expect(comparison.difference).toBeCloseTo(0.5, 12);
    // d = [0, 1]: s² = 0.5, SE = √(0.5/2) = 0.5.
    expect(comparison.stderr).toBeCloseTo(0.5, 12);
    expect(comparison.solvedOnlyByB).toEqual(["y"]);
  });

  it("counts a task with half its attempts correct as solved, and pairs fractional accuracies", () => {
    // d = [0.5 − 0.25, 0 − 0.75] = [0.25, −0.75]: mean −0.25, s² = 0.5, SE = 0.5.
    const comparison = comparePairedTasks(byTask([0.25, 0.75]), byTask([0.5, 0]));
    expect(comparison.difference).toBeCloseTo(-0.25, 12);
    expect(comparison.stderr).toBeCloseTo(0.5, 12);
    expect(comparison.solvedOnlyByA).toEqual(["t1"]);
    expect(comparison.solvedOnlyByB).toEqual(["t0"]);
  });

  it("reports zeros and p = 1 when the runs share no task", () => {
    const comparison = comparePairedTasks(byTask([1], "a"), byTask([1], "b"));
    expect(comparison).toMatchObject({ tasks: 0, difference: 0, stderr: 0, ci95: [0, 0], mcnemar: { onlyA: 0, onlyB: 0, pValue: 1 } });
  });
});

describe("taskAccuracies", () => {
  const episode = (taskId: string, attempt: number, score: ReturnType<typeof scored>) => EpisodeSchema.parse({ id: `${taskId}:${attempt}`, taskId, attempt, score });

  it("averages each task's scored attempts and leaves out unscored ones and tasks without a score", () => {
    const accuracies = taskAccuracies([
      episode("a", 0, scored(1, true)),
      episode("a", 1, scored(0, false)),
      episode("a", 2, unscored("free text")),
      episode("b", 0, unscored("free text")),
      episode("c", 0, scored(1.1, true)),
    ]);
    expect([...accuracies]).toEqual([["a", 0.5], ["c", 1]]);
  });
});
