import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { meanPassAtK, passAtK, reportedKs } from "../../src/metrics/pass-at-k.js";

// Hand-computed from the binomial definition (checked with Python's math.comb).
const cases: { n: number; c: number; k: number; expected: number; why: string }[] = JSON.parse(
  readFileSync(new URL("../fixtures/pass-at-k-cases.json", import.meta.url), "utf8"),
);

describe("passAtK", () => {
  it.each(cases)("n=$n c=$c k=$k: $why", ({ n, c, k, expected }) => {
    expect(passAtK(n, c, k)).toBeCloseTo(expected, 12);
  });

  it("refuses k larger than the number of attempts instead of guessing", () => {
    expect(() => passAtK(2, 1, 4)).toThrow(/k <= n/);
  });
});

describe("reportedKs", () => {
  it("lists powers of two up to the attempts and the attempts themselves", () => {
    expect(reportedKs(1)).toEqual([1]);
    expect(reportedKs(8)).toEqual([1, 2, 4, 8]);
    expect(reportedKs(10)).toEqual([1, 2, 4, 8, 10]);
  });
});

describe("meanPassAtK", () => {
  it("averages over tasks and leaves out tasks with fewer scored attempts than k", () => {
    const result = meanPassAtK([{ n: 4, c: 2 }, { n: 4, c: 0 }, { n: 1, c: 1 }], 2);
    expect(result.tasks).toBe(2);
    expect(result.value).toBeCloseTo((5 / 6 + 0) / 2, 12);
  });
});
