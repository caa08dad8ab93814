import { describe, expect, it } from "vitest";
import type { JudgeRequest, JudgeVerdict, SlotPolicy } from "../../src/tournament/selection-process.js";
import { runSelectionSync } from "../../src/tournament/selection-process.js";
import { createRng } from "../../src/core/random.js";
import type { ComparisonRecord } from "../../src/tournament/tournament-record.js";
import { V1OptionsSchema, v1Infer, v1Rounds } from "../../src/tournament/v1-infer.js";
import type { V1OptionsInput } from "../../src/tournament/v1-infer.js";
import { createWinRateStats, recordComparisons, winRate } from "../../src/tournament/win-rate-stats.js";

// A noisy judge on hidden strengths: ratings 1..10 with ties, so every branch of the aggregation is exercised.
function noisyJudge(seed: number, count: number) {
  const rng = createRng(seed);
  const strength = Array.from({ length: count }, () => rng() * 6);
  return (request: JudgeRequest): JudgeVerdict => {
    if (request.type !== "pair") throw new Error("pairwise only");
    const rate = (candidate: number) => Math.min(10, Math.max(1, Math.round(2 + strength[candidate]! + rng() * 3)));
    const ratingA = rate(request.slotA);
    const ratingB = rate(request.slotB);
    return { type: "pair", ratingA, ratingB, winner: ratingA > ratingB ? "A" : ratingA < ratingB ? "B" : "tie", parseError: false };
  };
}

function runV1(count: number, budget: number, options: V1OptionsInput = {}, slots: SlotPolicy = "scheduled", seed = 7) {
  const process = v1Rounds(count, budget, V1OptionsSchema.parse(options), slots, createRng(seed));
  const judge = noisyJudge(seed + 1, count);
  let step = process.next([]);
  while (!step.done) step = process.next(step.value.map(judge));
  return step.value;
}

function byRound(comparisons: readonly ComparisonRecord[]): ComparisonRecord[][] {
  const rounds = new Map<number, ComparisonRecord[]>();
  for (const record of comparisons) rounds.set(record.round, [...(rounds.get(record.round) ?? []), record]);
  return [...rounds.values()];
}

const sizes = [3, 4, 5, 7, 8, 9, 16, 17];
const multiples = [1, 2, 3];

describe("V1-Infer structural invariants", () => {
  it("gives every candidate at least 2 distinct opponents when N ≥ 3 and the budget allows", () => {
    for (const count of sizes) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const run = runV1(count, 2 * count, {}, "scheduled", seed);
        for (const opponents of run.stats.opponents) expect(opponents.size).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("makes each round a matching (no candidate twice in a round)", () => {
    for (const count of sizes) {
      for (const multiple of multiples) {
        for (const repeats of ["allow", "forbid"] as const) {
          const run = runV1(count, multiple * count, { swissRepeats: repeats });
          for (const round of byRound(run.comparisons)) {
            const seen = round.flatMap((record) => [record.slotA, record.slotB]);
            expect(new Set(seen).size).toBe(seen.length);
          }
        }
      }
    }
  });

  it("judges each scheduled pair in both orders within one round under the both-orders policy", () => {
    const run = runV1(8, 32, {}, "both");
    for (const round of byRound(run.comparisons)) {
      const keys = round.map((record) => [record.slotA, record.slotB].sort((a, b) => a - b).join(":"));
      for (const key of new Set(keys)) expect(keys.filter((other) => other === key)).toHaveLength(2);
    }
    expect(run.judgeCalls).toBeLessThanOrEqual(32);
  });

  it("never exceeds the budget when truncating, and overshoots by less than one round otherwise", () => {
    for (const count of sizes) {
      for (const budget of [1, 5, count, Math.round(1.5 * count), 2 * count + 1, 3 * count]) {
        const truncated = runV1(count, budget, { budgetOverflow: "truncate" });
        expect(truncated.judgeCalls).toBeLessThanOrEqual(budget);
        expect(truncated.comparisons).toHaveLength(truncated.judgeCalls);
        const overshoot = runV1(count, budget, { budgetOverflow: "overshoot" });
        expect(overshoot.judgeCalls).toBeLessThanOrEqual(budget - 1 + Math.floor(count / 2));
      }
    }
  });

  it("spends the whole budget under the published reading (Swiss repeats allowed)", () => {
    for (const count of [4, 8, 16]) expect(runV1(count, 3 * count).judgeCalls).toBe(3 * count);
  });

  it("never repeats a pair in the Swiss phase under the prose reading", () => {
    const run = runV1(6, 60, { swissRepeats: "forbid" });
    const keys = run.comparisons.map((record) => [record.slotA, record.slotB].sort((a, b) => a - b).join(":"));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeLessThanOrEqual(15);
  });

  it("runs no Swiss round at 1×N for even N", () => {
    for (const count of [4, 8, 16, 32]) {
      for (const seed of [1, 2, 3]) {
        const run = runV1(count, count, {}, "scheduled", seed);
        expect(run.comparisons.every((record) => record.phase === "coverage")).toBe(true);
      }
    }
  });

  it("runs Swiss rounds once the budget passes coverage", () => {
    const run = runV1(16, 32);
    expect(run.comparisons.some((record) => record.phase === "swiss")).toBe(true);
  });

  it("pairs the first round at random: different seeds give different matchings", () => {
    const firstRound = (seed: number) =>
      runV1(16, 8, {}, "scheduled", seed).comparisons.map((record) => `${record.slotA}-${record.slotB}`).join(",");
    expect(new Set([1, 2, 3, 4].map(firstRound)).size).toBeGreaterThan(1);
  });

  it("replays exactly with the same seed", () => {
    expect(runV1(16, 48, {}, "random", 11).comparisons).toEqual(runV1(16, 48, {}, "random", 11).comparisons);
  });
});

describe("V1 weighted win rate μ", () => {
  it("stays within [0, 1] and returns a valid pick", () => {
    for (const count of sizes) {
      const selection = runSelectionSync(v1Infer(count, 3 * count, V1OptionsSchema.parse({}), "scheduled", createRng(3)), noisyJudge(4, count));
      for (const score of selection.scores) {
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }
      expect(selection.scores[selection.chosenIndex]).toBe(Math.max(...selection.scores));
    }
  });

  it("is 0.5 for everyone when every verdict is a tie (and for parse errors)", () => {
    const tie = (): JudgeVerdict => ({ type: "pair", ratingA: 7, ratingB: 7, winner: "tie", parseError: false });
    const selection = runSelectionSync(v1Infer(8, 24, V1OptionsSchema.parse({}), "scheduled", createRng(1)), tie);
    expect(selection.scores).toEqual(new Array(8).fill(0.5));
    const unreadable = (): JudgeVerdict => ({ type: "pair", ratingA: null, ratingB: null, winner: "tie", parseError: true });
    expect(runSelectionSync(v1Infer(8, 24, V1OptionsSchema.parse({}), "scheduled", createRng(1)), unreadable).scores).toEqual(new Array(8).fill(0.5));
  });

  it("is 1 for a candidate that wins every comparison and picks it", () => {
    const favourite = 5;
    const judge = (request: JudgeRequest): JudgeVerdict => {
      if (request.type !== "pair") throw new Error("pairwise only");
      const winsA = request.slotA === favourite || (request.slotB !== favourite && request.slotA < request.slotB);
      return winsA
        ? { type: "pair", ratingA: 9, ratingB: 4, winner: "A", parseError: false }
        : { type: "pair", ratingA: 4, ratingB: 9, winner: "B", parseError: false };
    };
    const selection = runSelectionSync(v1Infer(8, 16, V1OptionsSchema.parse({}), "random", createRng(2)), judge);
    expect(selection.scores[favourite]).toBe(1);
    expect(selection.chosenIndex).toBe(favourite);
  });

  it("weights a decisive verdict more than a one-point one (w = max(|Δr|/9, τ))", () => {
    const stats = createWinRateStats(3);
    recordComparisons(
      stats,
      [
        { round: 0, slotA: 0, slotB: 1, ratingA: 10, ratingB: 1, winner: "A", parseError: false },
        { round: 1, slotA: 0, slotB: 2, ratingA: 5, ratingB: 6, winner: "B", parseError: false },
      ],
      0.1,
    );
    // Candidate 0: win with weight 1, loss with weight 1/9.
    expect(winRate(stats, 0)).toBeCloseTo(1 / (1 + 1 / 9), 10);
    expect(winRate(stats, 1)).toBe(0);
    expect(winRate(stats, 2)).toBe(1);
  });
});
