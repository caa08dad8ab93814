import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { drGrpoAdvantages, grpoAdvantages, rlooAdvantages } from "../../../src/training/advantages/index.js";

interface GroupCase {
  name: string;
  rewards: number[];
  grpo: number[];
  dr_grpo: number[];
  rloo: number[];
}

// Hand-computed values under the population convention (population std, eps 1e-6 on the std, a group of one gets 0),
// kept in data so cases are added without new code. The verl convention is checked against verl itself in
// verl-parity.sdk.test.ts.
const cases = JSON.parse(
  readFileSync(new URL("./group-estimator-cases.json", import.meta.url), "utf8"),
) as GroupCase[];

function expectClose(actual: number[], expected: number[], digits: number): void {
  expect(actual).toHaveLength(expected.length);
  for (const [index, value] of actual.entries()) expect(value).toBeCloseTo(expected[index]!, digits);
}

describe.each(cases)("group estimators on $name", (testCase) => {
  it("GRPO divides the centred reward by the population std", () => {
    expectClose(grpoAdvantages(testCase.rewards, "population"), testCase.grpo, 4);
  });
  it("Dr.GRPO only centres", () => {
    expectClose(drGrpoAdvantages(testCase.rewards, "population"), testCase.dr_grpo, 4);
  });
  it("RLOO compares with the mean of the others", () => {
    expectClose(rlooAdvantages(testCase.rewards), testCase.rloo, 3);
  });
});

describe("GRPO under verl's convention (the default)", () => {
  it("divides by the Bessel-corrected std, as torch.std", () => {
    // mean 1/3, sample std sqrt(1/3)
    expect(grpoAdvantages([1, 0, 0])[0]).toBeCloseTo((2 / 3) / (Math.sqrt(1 / 3) + 1e-6), 12);
  });
  it("measures a group of one against 0 with std 1", () => {
    expect(grpoAdvantages([1])).toEqual([1 / (1 + 1e-6)]);
    expect(drGrpoAdvantages([0.25])).toEqual([0.25]);
  });
});

describe("GRPO epsilon", () => {
  it("adds 1e-6 to the std, so [1,0,0,1] gives slightly less than ±1", () => {
    const [first] = grpoAdvantages([1, 0, 0, 1], "population");
    expect(first).toBeLessThan(1);
    expect(first).toBeCloseTo(0.5 / (0.5 + 1e-6), 12);
  });
  it("returns zeros, not NaN, when every reward in the group is equal", () => {
    expect(grpoAdvantages([0, 0])).toEqual([0, 0]);
  });
});
