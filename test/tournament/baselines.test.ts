import { describe, expect, it } from "vitest";
import { knockout, league, majorityVote, pointwise, randomPairing } from "../../src/tournament/baselines.js";
import { fitBradleyTerry } from "../../src/tournament/bradley-terry.js";
import { defaultSelectionConfig, selectionProcess } from "../../src/tournament/selection-methods.js";
import type { JudgeRequest, JudgeVerdict } from "../../src/tournament/selection-process.js";
import { runSelectionSync } from "../../src/tournament/selection-process.js";
import { createRng } from "../../src/core/random.js";
import type { ComparisonRecord } from "../../src/tournament/tournament-record.js";

// A perfect judge on a strict order: the higher `strength` always wins; pointwise rates by strength.
const strength = [3, 9, 1, 7, 5, 2, 8, 4];
const best = strength.indexOf(Math.max(...strength));
function perfectJudge(request: JudgeRequest): JudgeVerdict {
  if (request.type === "point") return { type: "point", rating: strength[request.candidate]!, parseError: false };
  const winsA = strength[request.slotA]! > strength[request.slotB]!;
  return { type: "pair", ratingA: winsA ? 9 : 2, ratingB: winsA ? 2 : 9, winner: winsA ? "A" : "B", parseError: false };
}

describe("baselines with a perfect judge", () => {
  it("all pick the strongest candidate", () => {
    const count = strength.length;
    for (const method of ["v1", "v1-top", "bt", "bt-weighted", "v1-top-bt", "random", "pointwise", "knockout", "league"] as const) {
      const config = { ...defaultSelectionConfig(4 * count), knockoutK: 1 };
      const selection = runSelectionSync(selectionProcess(method, count, config, createRng(3)), perfectJudge);
      if (method === "league" || method === "random") {
        // Sampled opponents: the strongest is never beaten, so it ties for the top score at worst.
        expect(selection.scores[best]).toBe(Math.max(...selection.scores));
      } else {
        expect(selection.chosenIndex, method).toBe(best);
      }
      expect(selection.judgeCalls, method).toBeLessThanOrEqual(4 * count);
    }
  });
});

describe("knockout", () => {
  it("costs K(N − 1) calls with a bye for odd counts", () => {
    for (const count of [2, 5, 8, 13]) {
      for (const repeats of [1, 2, 3]) {
        const selection = runSelectionSync(knockout(count, repeats, "scheduled", createRng(count)), perfectJudge2(count));
        expect(selection.judgeCalls).toBe(repeats * (count - 1));
      }
    }
  });

  it("costs 2K(N − 1) calls when both orders are judged", () => {
    const selection = runSelectionSync(knockout(8, 1, "both", createRng(1)), perfectJudge);
    expect(selection.judgeCalls).toBe(14);
    expect(selection.chosenIndex).toBe(best);
  });
});

function perfectJudge2(count: number) {
  return (request: JudgeRequest): JudgeVerdict => {
    if (request.type !== "pair") throw new Error("pairwise only");
    const winsA = (request.slotA * 7) % count > (request.slotB * 7) % count;
    return { type: "pair", ratingA: winsA ? 8 : 3, ratingB: winsA ? 3 : 8, winner: winsA ? "A" : "B", parseError: false };
  };
}

describe("pointwise", () => {
  it("averages repeated ratings and draws a tie with the rng, the same way for the same seed", () => {
    const saturated = (): JudgeVerdict => ({ type: "point", rating: 10, parseError: false });
    const selection = runSelectionSync(pointwise(6, 12, createRng(5)), saturated);
    expect(selection.judgeCalls).toBe(12);
    expect(selection.scores).toEqual(new Array(6).fill(10));
    expect(selection.tieBreak).toBe(true);
    expect(runSelectionSync(pointwise(6, 12, createRng(5)), saturated).chosenIndex).toBe(selection.chosenIndex);
  });

  it("scores a candidate with only unreadable ratings below every rated one", () => {
    const judge = (request: JudgeRequest): JudgeVerdict =>
      request.type === "point" && request.candidate === 0
        ? { type: "point", rating: null, parseError: true }
        : { type: "point", rating: 1, parseError: false };
    const selection = runSelectionSync(pointwise(3, 3, createRng(1)), judge);
    expect([1, 2]).toContain(selection.chosenIndex);
    expect(selection.tieBreak).toBe(true);
  });
});

describe("league and random pairing", () => {
  it("league spends N·K calls with K = floor(budget / N)", () => {
    expect(runSelectionSync(league(8, 24, "scheduled", createRng(1)), perfectJudge).judgeCalls).toBe(24);
    expect(runSelectionSync(league(8, 24, "both", createRng(1)), perfectJudge).judgeCalls).toBe(16);
  });

  it("random pairing plays disjoint pairs in each round up to the budget", () => {
    const selection = runSelectionSync(randomPairing(8, 20, 0.1, "scheduled", createRng(2)), perfectJudge);
    expect(selection.judgeCalls).toBe(20);
    const rounds = new Map<number, number[]>();
    for (const record of selection.comparisons) rounds.set(record.round, [...(rounds.get(record.round) ?? []), record.slotA, record.slotB]);
    for (const members of rounds.values()) expect(new Set(members).size).toBe(members.length);
  });
});

describe("majority vote", () => {
  it("picks a holder of the most frequent answer, ignores missing answers, and calls that no tie", () => {
    const selection = majorityVote(["7", undefined, "3", "3", "7", "3"], createRng(1));
    expect([2, 3, 5]).toContain(selection.chosenIndex);
    expect(selection.tieBreak).toBe(false);
    expect(selection.scores).toEqual([0.4, 0, 0.6, 0.6, 0.4, 0.6]);
    expect(selection.judgeCalls).toBe(0);
  });

  it("refuses to run without one answer per candidate", () => {
    expect(() => runSelectionSync(selectionProcess("majority", 3, defaultSelectionConfig(3), createRng(1), ["a"]), perfectJudge)).toThrow(/one extracted answer per candidate/);
  });
});

describe("Bradley–Terry", () => {
  const record = (slotA: number, slotB: number, winner: "A" | "B" | "tie"): ComparisonRecord => ({
    round: 0,
    slotA,
    slotB,
    ratingA: winner === "A" ? 9 : winner === "B" ? 2 : 5,
    ratingB: winner === "B" ? 9 : winner === "A" ? 2 : 5,
    winner,
    parseError: false,
  });

  it("ranks a chain a > b > c in order and accounts for opponent strength", () => {
    // 0 beats 1 twice, 1 beats 2 twice; 3 beat only 2 once: win rate 1 for 3 but BT puts 0 first.
    const theta = fitBradleyTerry(4, [record(0, 1, "A"), record(0, 1, "A"), record(1, 2, "A"), record(1, 2, "A"), record(3, 2, "A")]);
    expect(theta[0]!).toBeGreaterThan(theta[1]!);
    expect(theta[1]!).toBeGreaterThan(theta[2]!);
    expect(theta[0]!).toBeGreaterThan(theta[3]!);
  });

  it("gives equal strengths to all-tie histories and stays finite for an undefeated candidate", () => {
    const ties = fitBradleyTerry(3, [record(0, 1, "tie"), record(1, 2, "tie"), record(0, 2, "tie")]);
    for (const value of ties) expect(value).toBeCloseTo(0, 6);
    const undefeated = fitBradleyTerry(2, [record(0, 1, "A"), record(0, 1, "A")]);
    expect(Number.isFinite(undefeated[0]!)).toBe(true);
    expect(undefeated[0]!).toBeGreaterThan(undefeated[1]!);
  });
});

describe("ties at the top", () => {
  // A judge with nothing to say: every pair a tie, every rating the same. Old rule: index 0 won every time.
  const indifferent = (request: JudgeRequest): JudgeVerdict =>
    request.type === "point" ? { type: "point", rating: 7, parseError: false } : { type: "pair", ratingA: 5, ratingB: 5, winner: "tie", parseError: false };
  const seeds = Array.from({ length: 40 }, (_, seed) => seed);

  it.each(["v1", "bt", "random", "pointwise", "league"] as const)("%s draws the pick among tied candidates, never by position", (method) => {
    const picks = seeds.map((seed) => runSelectionSync(selectionProcess(method, 8, defaultSelectionConfig(16), createRng(seed)), indifferent));
    expect(picks.every((selection) => selection.tieBreak)).toBe(true);
    expect(new Set(picks.map((selection) => selection.chosenIndex)).size).toBeGreaterThan(4);
  });

  it("majority vote over candidates without answers, or over answers tied in votes, draws the pick", () => {
    const answerless = seeds.map((seed) => majorityVote([undefined, undefined, undefined, undefined], createRng(seed)));
    expect(answerless.every((selection) => selection.tieBreak)).toBe(true);
    expect(new Set(answerless.map((selection) => selection.chosenIndex)).size).toBe(4);
    const split = seeds.map((seed) => majorityVote(["1", "2", "1", "2"], createRng(seed)));
    expect(split.every((selection) => selection.tieBreak)).toBe(true);
    expect(new Set(split.map((selection) => selection.chosenIndex)).size).toBe(4);
  });

  it("replays the same pick for the same seed", () => {
    const pick = (seed: number) => runSelectionSync(selectionProcess("v1", 8, defaultSelectionConfig(16), createRng(seed)), indifferent).chosenIndex;
    expect(seeds.map(pick)).toEqual(seeds.map(pick));
  });
});
