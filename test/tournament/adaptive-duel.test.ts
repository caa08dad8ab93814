import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/random.js";
import type { AdaptiveDuelOptions } from "../../src/tournament/adaptive-duel.js";
import { AdaptiveDuelOptionsSchema, adaptiveDuel } from "../../src/tournament/adaptive-duel.js";
import type { JudgeRequest, JudgeVerdict, SlotPolicy } from "../../src/tournament/selection-process.js";
import { runSelectionSync } from "../../src/tournament/selection-process.js";
import { simulateTournament } from "../../src/tournament/simulate-tournament.js";

// A noisy judge on hidden strengths: ratings 1..10 with ties, so the margin weights and the tie branch both run.
function noisyJudge(seed: number, strengths: readonly number[]) {
  const rng = createRng(seed);
  return (request: JudgeRequest): JudgeVerdict => {
    if (request.type !== "pair") throw new Error("pairwise only");
    const rate = (candidate: number) => Math.min(10, Math.max(1, Math.round(2 + strengths[candidate]! + rng() * 4)));
    const ratingA = rate(request.slotA);
    const ratingB = rate(request.slotB);
    return { type: "pair", ratingA, ratingB, winner: ratingA > ratingB ? "A" : ratingA < ratingB ? "B" : "tie", parseError: false };
  };
}

function duel(
  answers: ReadonlyArray<string | undefined> | undefined,
  budget: number,
  strengths: readonly number[],
  { options = {}, slots = "scheduled", seed = 3 }: { options?: Partial<AdaptiveDuelOptions>; slots?: SlotPolicy; seed?: number } = {},
) {
  const process = adaptiveDuel(strengths.length, budget, AdaptiveDuelOptionsSchema.parse(options), 0.1, slots, createRng(seed), answers);
  return runSelectionSync(process, noisyJudge(seed + 1, strengths));
}

const strengths = [1, 5, 2, 5, 1, 0, 3, 2];
const answers = ["7", "12", "7", "12", "9", "9", "3", "7"];

describe("adaptive-duel", () => {
  it("replays exactly with the same seed", () => {
    const first = duel(answers, 12, strengths, { seed: 11 });
    const second = duel(answers, 12, strengths, { seed: 11 });
    expect(second).toEqual(first);
    expect(first.comparisons.length).toBeGreaterThan(0);
  });

  it("never spends more judge calls than the budget, under every slot policy", () => {
    for (const slots of ["scheduled", "random", "both"] as const) {
      for (const budget of [0, 1, 3, 5, 8, 13]) {
        for (const seed of [1, 2, 3]) {
          const selection = duel(undefined, budget, strengths, { slots, seed, options: { confidence: 1 } });
          expect(selection.judgeCalls).toBeLessThanOrEqual(budget);
          expect(selection.judgeCalls).toBe(selection.comparisons.length);
        }
      }
    }
  });

  it("spends the whole budget when it is never certain enough (confidence 1)", () => {
    expect(duel(undefined, 13, strengths, { options: { confidence: 1 } }).judgeCalls).toBe(13);
  });

  it("never judges two candidates with the same answer against each other when clustering is on", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const selection = duel(answers, 24, strengths, { seed, options: { confidence: 1 } });
      expect(selection.comparisons.length).toBe(24);
      for (const comparison of selection.comparisons) expect(answers[comparison.slotA]).not.toBe(answers[comparison.slotB]);
    }
  });

  it("does judge equal answers against each other when clustering is off", () => {
    const selection = duel(answers, 24, strengths, { options: { clusters: false, confidence: 1 } });
    expect(selection.comparisons.some((comparison) => answers[comparison.slotA] === answers[comparison.slotB])).toBe(true);
  });

  it("makes no judge call when every candidate gives the same answer", () => {
    const selection = duel(["5", "5", "5", "5"], 8, [1, 2, 3, 4]);
    expect(selection.judgeCalls).toBe(0);
    expect(selection.chosenIndex).toBeLessThan(4);
  });

  it("picks the majority answer when it has no budget, its support being the prior", () => {
    for (const seed of [1, 2, 3, 4]) {
      const selection = duel(["4", "9", "4", "4", "2"], 0, [0, 0, 0, 0, 0], { seed });
      expect(selection.judgeCalls).toBe(0);
      expect(["0", "2", "3"]).toContain(String(selection.chosenIndex));
    }
  });

  it("stops before the budget once one answer is clearly best", () => {
    // Two answers and a judge that rates the strong one 10 and the weak one 1 almost always: the posterior settles fast.
    const selection = duel(["a", "b", "a", "b"], 40, [8, -4, 8, -4]);
    expect(selection.judgeCalls).toBeLessThan(40);
    expect(["0", "2"]).toContain(String(selection.chosenIndex));
  });

  it("alternates which answer sits in slot A, so a position bias cancels", () => {
    const selection = duel(["a", "b"], 10, [0, 0], { options: { confidence: 1 } });
    const aFirst = selection.comparisons.filter((comparison) => comparison.slotA === 0).length;
    expect(aFirst).toBe(5);
  });

  it("beats majority vote in a fixed simulated setting (N 8, judge accuracy 0.7, 1.5×N calls, seed 1)", () => {
    const rows = simulateTournament({
      world: { n: 8, correctProb: 0.3, judgeAccuracy: 0.7 },
      methods: ["majority", "adaptive-duel"],
      budgets: [1.5],
      trials: 300,
      seed: 1,
    });
    const majority = rows.find((row) => row.method === "majority")!;
    const adaptive = rows.find((row) => row.method === "adaptive-duel")!;
    expect(adaptive.judgeCalls).toBeLessThanOrEqual(12);
    expect(adaptive.selectAccuracy).toBeGreaterThan(majority.selectAccuracy + 0.1);
  });
});
