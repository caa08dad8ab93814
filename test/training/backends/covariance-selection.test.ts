import { describe, expect, it } from "vitest";
import { createRng } from "../../../src/core/random.js";
import { covarianceSelection } from "../../../src/training/backends/covariance-selection.js";

// Four trained tokens and one padding token; covariances (A − 0.5)(p + 2.25): 0.625, 0.375, 0.125, 0.875 for tokens 0..3.
const advantages = [1, 1, 0, 0, 7];
const logprobs = [-1, -1.5, -2.5, -4, 0];
const mask = [1, 1, 1, 1, 0];

describe("covariance selection (Clip-Cov, KL-Cov)", () => {
  it("takes the largest covariances for KL-Cov, at least one token", () => {
    expect(covarianceSelection(advantages, logprobs, mask, { share: 0.5, isCandidate: () => true, pick: "largest" })).toEqual([true, false, false, true, false]);
    expect(covarianceSelection(advantages, logprobs, mask, { share: 0.01, isCandidate: () => true, pick: "largest" }).filter(Boolean)).toHaveLength(1);
  });

  it("takes every candidate when there are no more than the share, and never a padding token", () => {
    const chosen = covarianceSelection(advantages, logprobs, mask, { share: 1, isCandidate: (covariance) => covariance < 0.6, pick: "random" });
    expect(chosen).toEqual([false, true, true, false, false]);
  });

  it("draws among more candidates than the share with the seeded generator, the same draw for the same seed", () => {
    const draw = (seed: number) => covarianceSelection(advantages, logprobs, mask, { share: 0.5, isCandidate: () => true, pick: "random", random: createRng(seed) });
    expect(draw(3).filter(Boolean)).toHaveLength(2);
    expect(draw(3)).toEqual(draw(3));
    expect(() => covarianceSelection(advantages, logprobs, mask, { share: 0.5, isCandidate: () => true, pick: "random" })).toThrow(/no seeded random generator/);
  });
});
