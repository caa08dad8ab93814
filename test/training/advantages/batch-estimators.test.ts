import { describe, expect, it } from "vitest";
import {
  advantageStatistics,
  estimateAdvantagesByRole,
  reinforceAdvantages,
  reinforcePlusPlusAdvantages,
  rejectionSamplingAdvantages,
} from "../../../src/training/advantages/index.js";

describe("REINFORCE with a batch-mean baseline", () => {
  it("subtracts the mean over every group of the batch", () => {
    // batch mean of [1,0,1,1] is 0.75
    expect(reinforceAdvantages([[1, 0], [1, 1]])).toEqual([[0.25, -0.75], [0.25, 0.25]]);
  });
});

describe("REINFORCE++", () => {
  it("whitens over trained tokens under verl's convention: a trajectory weighs its token count", () => {
    // tokens: reward 1 ×3, reward 0 ×1 → mean 0.75, Bessel variance 0.25 = 0.1875·4/3
    const [[long, short]] = reinforcePlusPlusAdvantages([[1, 0]], [[3, 1]]) as [number[]];
    expect(long).toBeCloseTo(0.25 / Math.sqrt(0.25 + 1e-8), 7);
    expect(short).toBeCloseTo(-0.75 / Math.sqrt(0.25 + 1e-8), 7);
  });
  it("whitens by the batch mean and population std under the population convention", () => {
    // mean 0.75, std sqrt(0.1875) = 0.4330
    const [first, second] = reinforcePlusPlusAdvantages([[1, 0], [1, 1]], undefined, "population");
    expect(first![0]).toBeCloseTo(0.57735, 4);
    expect(first![1]).toBeCloseTo(-1.73205, 4);
    expect(second![1]).toBeCloseTo(0.57735, 4);
  });
});

describe("rejection sampling (RFT)", () => {
  it("gives 1 to full-marks trajectories and 0 to every other, with no baseline", () => {
    // a judge that got one slot of two right (0.5) is not imitated; 0.5 + 0.5 computed in floats still counts as 1
    expect(rejectionSamplingAdvantages([[1, 0.5, 0], [0.1 + 0.9, 0.999]])).toEqual([[1, 0, 0], [1, 0]]);
  });
});

describe("per-role estimator choice", () => {
  it("applies each role's estimator to its own groups only", () => {
    const advantages = estimateAdvantagesByRole(
      [
        { role: "solver", rewards: [1, 0, 0, 1] },
        { role: "judge", rewards: [1, 0] },
        { role: "judge", rewards: [0.5] },
        { role: "solver", rewards: [0, 1] },
      ],
      { solver: "rloo", judge: "reinforce" },
      "grpo",
    );
    expect(advantages[0]![0]).toBeCloseTo(0.6667, 3);
    // the judge baseline is the judge batch mean 0.5, untouched by solver rewards
    expect(advantages[1]).toEqual([0.5, -0.5]);
    expect(advantages[2]).toEqual([0]);
    expect(advantages[3]).toEqual([-1, 1]);
  });
  it("falls back to the default estimator for a role not named", () => {
    const [only] = estimateAdvantagesByRole([{ role: "critic", rewards: [1, 0] }], {}, "dr_grpo");
    expect(only).toEqual([0.5, -0.5]);
  });
});

describe("advantage statistics", () => {
  it("reports mean, std, range and the zero fraction", () => {
    expect(advantageStatistics([1, -1, 0, 0])).toEqual({ mean: 0, std: Math.sqrt(0.5), min: -1, max: 1, fractionZero: 0.5 });
  });
  it("returns zeros for an empty batch", () => {
    expect(advantageStatistics([]).mean).toBe(0);
  });
});
