import { describe, expect, it } from "vitest";
import { accuracyStats, wilsonInterval } from "../../src/metrics/accuracy.js";

describe("wilsonInterval", () => {
  it("matches the textbook value for 8 of 10", () => {
    // Wilson 95% for p̂ = 0.8, n = 10: [0.4902, 0.9433] (Newcombe 1998, Table I method 3).
    const [low, high] = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(0.4902, 3);
    expect(high).toBeCloseTo(0.9433, 3);
  });

  it("stays inside [0, 1] at the extremes", () => {
    const [low, high] = wilsonInterval(0, 5);
    expect(low).toBe(0);
    expect(high).toBeGreaterThan(0.4);
    expect(wilsonInterval(5, 5)[1]).toBe(1);
  });
});

describe("accuracyStats", () => {
  it("uses the binomial standard error with one attempt per task", () => {
    const stats = accuracyStats([[true], [false], [true], [true]]);
    expect(stats.mean).toBe(0.75);
    expect(stats.stderr).toBeCloseTo(Math.sqrt((0.75 * 0.25) / 4), 12);
    expect(stats.n).toBe(4);
  });

  it("clusters by task when there are several attempts", () => {
    // Task means 1, 0, 0.5: sample sd = 0.5, stderr = 0.5/sqrt(3).
    const stats = accuracyStats([[true, true], [false, false], [true, false]]);
    expect(stats.mean).toBe(0.5);
    expect(stats.stderr).toBeCloseTo(0.5 / Math.sqrt(3), 12);
  });

  it("returns zeros rather than NaN for no episodes", () => {
    expect(accuracyStats([])).toEqual({ mean: 0, stderr: 0, ci95: [0, 1], n: 0 });
  });
});
