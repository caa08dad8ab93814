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

// Hand-computed values (population std, eps 1e-6 on the std), kept in data so cases are added without new code.
const cases = JSON.parse(
  readFileSync(new URL("./group-estimator-cases.json", import.meta.url), "utf8"),
) as GroupCase[];

function expectClose(actual: number[], expected: number[], digits: number): void {
  expect(actual).toHaveLength(expected.length);
  for (const [index, value] of actual.entries()) expect(value).toBeCloseTo(expected[index]!, digits);
}

describe.each(cases)("group estimators on $name", (testCase) => {
  it("GRPO divides the centred reward by the population std", () => {
    expectClose(grpoAdvantages(testCase.rewards), testCase.grpo, 4);
  });
  it("Dr.GRPO only centres", () => {
    expectClose(drGrpoAdvantages(testCase.rewards), testCase.dr_grpo, 4);
  });
  it("RLOO compares with the mean of the others", () => {
    expectClose(rlooAdvantages(testCase.rewards), testCase.rloo, 3);
  });
});

describe("GRPO epsilon", () => {
  it("adds 1e-6 to the std, so [1,0,0,1] gives slightly less than ±1", () => {
    const [first] = grpoAdvantages([1, 0, 0, 1]);
    expect(first).toBeLessThan(1);
    expect(first).toBeCloseTo(0.5 / (0.5 + 1e-6), 12);
  });
  it("returns zeros, not NaN, when every reward in the group is equal", () => {
    expect(grpoAdvantages([0, 0])).toEqual([0, 0]);
  });
});
