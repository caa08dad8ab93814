import { describe, expect, it } from "vitest";
import { simulateTournament } from "../../src/tournament/simulate-tournament.js";
import { createRng } from "../../src/core/random.js";
import { SimulatedWorldSchema, calibrateRatings, createSimulatedJudge, drawInstance } from "../../src/tournament/simulated-judge.js";

// Monte-Carlo checks allow 3.5 standard errors, so a correct simulator fails about once in 2,000 runs of a check.
const tolerance = (row: { stderr: number }) => 3.5 * row.stderr;

/** Chen et al. Thm 2.4: p_{i+1} = p_i² + 2·p_i(1 − p_i)·q over log2 N levels. */
function knockoutRecursion(generationAccuracy: number, judgeAccuracy: number, count: number): number {
  let accuracy = generationAccuracy;
  for (let size = 1; size < count; size *= 2) accuracy = accuracy ** 2 + 2 * accuracy * (1 - accuracy) * judgeAccuracy;
  return accuracy;
}

describe("simulator against theory (binary judge, exact accuracy p per mixed pair)", () => {
  it("knockout with one correct of 16 and p 0.7 succeeds with 0.7^4 = 0.2401", () => {
    const [row] = simulateTournament({
      world: { n: 16, correctCount: 1, judgeAccuracy: 0.7, judgeModel: "binary" },
      methods: ["knockout"],
      budgets: [1],
      trials: 20_000,
      seed: 5,
    });
    expect(Math.abs(row!.selectAccuracy - 0.2401)).toBeLessThan(tolerance(row!));
    expect(row!.judgeCalls).toBe(15);
  });

  it("knockout with i.i.d. candidates follows the level recursion (0.676 for p_gen 0.3, q 0.7, N 16)", () => {
    expect(knockoutRecursion(0.3, 0.7, 16)).toBeCloseTo(0.676, 3);
    const [row] = simulateTournament({
      world: { n: 16, correctProb: 0.3, judgeAccuracy: 0.7, judgeModel: "binary" },
      methods: ["knockout"],
      budgets: [1],
      trials: 20_000,
      seed: 6,
    });
    expect(Math.abs(row!.selectAccuracy - knockoutRecursion(0.3, 0.7, 16))).toBeLessThan(tolerance(row!));
  });

  it("majority of 3 comparisons at p 0.7 is right with 0.784", () => {
    const [row] = simulateTournament({
      world: { n: 2, correctCount: 1, judgeAccuracy: 0.7, judgeModel: "binary" },
      methods: ["knockout"],
      budgets: [1],
      knockoutK: 3,
      trials: 20_000,
      seed: 7,
    });
    expect(Math.abs(row!.selectAccuracy - 0.784)).toBeLessThan(tolerance(row!));
    expect(row!.judgeCalls).toBe(3);
  });

  it("knockout with K = 3 at N 16 follows the recursion with q = 0.784 (0.8175)", () => {
    const [row] = simulateTournament({
      world: { n: 16, correctProb: 0.3, judgeAccuracy: 0.7, judgeModel: "binary" },
      methods: ["knockout"],
      budgets: [1],
      knockoutK: 3,
      trials: 10_000,
      seed: 8,
    });
    expect(Math.abs(row!.selectAccuracy - knockoutRecursion(0.3, 0.784, 16))).toBeLessThan(tolerance(row!));
  });

  it("judging both orders under position bias b splits with 2p(1−p) + 2b²", () => {
    const world = SimulatedWorldSchema.parse({ n: 2, judgeAccuracy: 0.7, positionBias: 0.15, judgeModel: "binary" });
    const instance = { correct: [true, false], quality: [1, 0], answers: ["correct", "wrong-0"] };
    const judge = createSimulatedJudge(world, instance, { slope: 0, slotBonus: 0, noise: 0 }, createRng(9));
    const trials = 20_000;
    let splits = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const forward = judge({ type: "pair", slotA: 0, slotB: 1 });
      const backward = judge({ type: "pair", slotA: 1, slotB: 0 });
      if (forward.type === "pair" && backward.type === "pair" && forward.winner === backward.winner) splits += 1;
    }
    const expected = 2 * 0.7 * 0.3 + 2 * 0.15 ** 2;
    expect(Math.abs(splits / trials - expected)).toBeLessThan(3.5 * Math.sqrt((expected * (1 - expected)) / trials));
  });

  it("reports the oracle ceilings pass@1 = E[c/N] and pass@N = P(c ≥ 1)", () => {
    const [row] = simulateTournament({
      world: { n: 4, correctProb: 0.25, judgeModel: "binary" },
      methods: ["majority"],
      budgets: [1],
      trials: 20_000,
      seed: 3,
    });
    expect(Math.abs(row!.passAt1 - 0.25)).toBeLessThan(0.01);
    expect(Math.abs(row!.passAtN - (1 - 0.75 ** 4))).toBeLessThan(0.015);
  });
});

describe("ratings judge calibration", () => {
  it("gives the requested accuracy on mixed pairs (ties half) and the requested slot bias", () => {
    for (const judgeAccuracy of [0.6, 0.8]) {
      const world = SimulatedWorldSchema.parse({ n: 2, correctCount: 1, judgeAccuracy, positionBias: 0.1 });
      const calibration = calibrateRatings(world);
      const rng = createRng(12);
      const trials = 20_000;
      const wins = { slotA: 0, slotB: 0 };
      for (let trial = 0; trial < trials; trial += 1) {
        const instance = drawInstance(world, rng);
        const judge = createSimulatedJudge(world, instance, calibration, rng);
        const good = instance.correct[0] ? 0 : 1;
        const inSlotA = trial % 2 === 0;
        const verdict = judge(inSlotA ? { type: "pair", slotA: good, slotB: 1 - good } : { type: "pair", slotA: 1 - good, slotB: good });
        if (verdict.type !== "pair") throw new Error("pair expected");
        const score = verdict.winner === "tie" ? 0.5 : (verdict.winner === "A") === inSlotA ? 1 : 0;
        if (inSlotA) wins.slotA += score;
        else wins.slotB += score;
      }
      const slotA = wins.slotA / (trials / 2);
      const slotB = wins.slotB / (trials / 2);
      expect(Math.abs((slotA + slotB) / 2 - judgeAccuracy)).toBeLessThan(0.015);
      expect(Math.abs((slotA - slotB) / 2 - 0.1)).toBeLessThan(0.02);
    }
  });
});

describe("simulator output", () => {
  it("replays exactly with the same seed and uses the same problems for every method", () => {
    const input = { world: { n: 8 }, methods: ["v1", "random"] as const, budgets: [2], trials: 300, seed: 4 };
    const first = simulateTournament({ ...input, methods: [...input.methods] });
    expect(simulateTournament({ ...input, methods: [...input.methods] })).toEqual(first);
    expect(first[0]!.passAt1).toBe(first[1]!.passAt1);
  });

  it("keeps judge calls at the budget for the budgeted methods", () => {
    const rows = simulateTournament({ world: { n: 16 }, methods: ["v1", "random", "pointwise", "league", "bt"], budgets: [1, 2, 3], trials: 100 });
    for (const row of rows) expect(row.judgeCalls).toBe(row.budget * 16);
  });

  it("selects better than pass@1 once the judge beats chance, and no better when it is a coin", () => {
    const [good] = simulateTournament({ world: { n: 8, judgeAccuracy: 0.8 }, methods: ["v1"], budgets: [2], trials: 2000, seed: 2 });
    expect(good!.selectAccuracy - good!.passAt1).toBeGreaterThan(5 * good!.stderr);
    const [coin] = simulateTournament({
      world: { n: 8, judgeAccuracy: 0.5, judgeModel: "binary" },
      methods: ["v1"],
      budgets: [2],
      trials: 4000,
      seed: 2,
    });
    expect(Math.abs(coin!.selectAccuracy - coin!.passAt1)).toBeLessThan(tolerance(coin!));
  });
});

describe("V1 against the baselines at equal judge calls (ratings judge, defaults)", () => {
  it("matches or beats random pairing and pointwise at 2×N for judge accuracies 0.6 and 0.9", () => {
    for (const judgeAccuracy of [0.6, 0.9]) {
      const rows = simulateTournament({ world: { n: 16, judgeAccuracy }, methods: ["v1", "random", "pointwise"], budgets: [2], trials: 1000, seed: 21 });
      const [v1, random, pointwise] = rows;
      for (const baseline of [random!, pointwise!]) {
        expect(v1!.selectAccuracy, `${baseline.method} at p ${judgeAccuracy}`).toBeGreaterThan(baseline.selectAccuracy - 3 * baseline.stderr);
      }
    }
  });

  it("is beaten by our top-half Swiss pairing with a weighted Bradley–Terry fit on the same budget", () => {
    const [v1, variant] = simulateTournament({ world: { n: 16, judgeAccuracy: 0.7 }, methods: ["v1", "v1-top-bt"], budgets: [3], trials: 1000, seed: 22 });
    expect(variant!.judgeCalls).toBe(v1!.judgeCalls);
    expect(variant!.selectAccuracy).toBeGreaterThan(v1!.selectAccuracy + 2 * v1!.stderr);
  });
});

