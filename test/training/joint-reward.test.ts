import { describe, expect, it } from "vitest";
import {
  isPairJudgedCorrectly,
  normalizeRating,
  pairVerifierReward,
  pointVerifierReward,
  verifierPairs,
} from "../../src/training/joint-reward.js";
import { createRng } from "../../src/core/random.js";

describe("verifier reward", () => {
  it("maps ratings 1..10 to [0, 1]", () => {
    expect(normalizeRating(1)).toBe(0);
    expect(normalizeRating(10)).toBe(1);
    expect(normalizeRating(5.5)).toBeCloseTo(0.5, 10);
  });

  it("gives full reward for 10 on a correct and 1 on an incorrect solution", () => {
    expect(pairVerifierReward({ ratingA: 10, ratingB: 1 }, true, false)).toBe(1);
  });

  it("gives partial reward inside the 0.2 tolerance and nothing outside it", () => {
    // rating 9 on a correct solution: v = 8/9, distance 1/9 → 8/9; rating 7 on incorrect: v = 6/9 → 0
    expect(pairVerifierReward({ ratingA: 9, ratingB: 7 }, true, false)).toBeCloseTo(0.5 * (8 / 9), 10);
    // rating 8: distance 2/9 = 0.222 > 0.2 → 0
    expect(pointVerifierReward(8, true)).toBe(0);
  });

  it("does not reward the safe bet of rating everything in the middle", () => {
    expect(pairVerifierReward({ ratingA: 5, ratingB: 6 }, true, false)).toBe(0);
  });

  it("gives 0 to an unparsable verdict", () => {
    expect(pairVerifierReward(null, true, false)).toBe(0);
  });

  it("counts a pair as judged correctly only when the correct one is rated strictly higher", () => {
    expect(isPairJudgedCorrectly({ ratingA: 3, ratingB: 8 }, false, true)).toBe(true);
    expect(isPairJudgedCorrectly({ ratingA: 8, ratingB: 8 }, false, true)).toBe(false);
    expect(isPairJudgedCorrectly({ ratingA: 9, ratingB: 2 }, true, true)).toBe(false);
  });
});

describe("pair selection", () => {
  it("never pairs two incorrect solutions", () => {
    const pairs = verifierPairs([false, true, false, false], 10, createRng(1));
    expect(pairs).toHaveLength(3);
    for (const pair of pairs) expect(pair.indexA === 1 || pair.indexB === 1).toBe(true);
  });

  it("with pairing \"mixed\" keeps only correct–incorrect pairs", () => {
    const correctness = [true, true, false, true, false];
    const pairs = verifierPairs(correctness, 100, createRng(3), "mixed");
    // 3 correct × 2 incorrect
    expect(pairs).toHaveLength(6);
    for (const pair of pairs) expect(correctness[pair.indexA]).not.toBe(correctness[pair.indexB]);
    // the paper's rule also admits the 3 correct–correct pairs
    expect(verifierPairs(correctness, 100, createRng(3))).toHaveLength(9);
    expect(verifierPairs([true, true, true], 4, createRng(3), "mixed")).toEqual([]);
  });

  it("forms no pair when every solution is wrong", () => {
    expect(verifierPairs([false, false, false], 4, createRng(1))).toEqual([]);
  });

  it("samples at most maxPairs distinct pairs and replays exactly with the same seed", () => {
    const first = verifierPairs([true, true, false, true, false], 4, createRng(7));
    expect(first).toHaveLength(4);
    const keys = first.map((pair) => [pair.indexA, pair.indexB].sort().join("-"));
    expect(new Set(keys).size).toBe(4);
    expect(verifierPairs([true, true, false, true, false], 4, createRng(7))).toEqual(first);
  });
});
