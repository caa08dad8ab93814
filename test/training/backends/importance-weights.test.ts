import { describe, expect, it } from "vitest";
import { importanceWeights } from "../../../src/training/backends/importance-weights.js";

// One row of three tokens (token 0 never predicted), trained at 1 and 2: ratios 2 and 0.5.
const trainer = [[0, Math.log(0.4), Math.log(0.1)]];
const sampler = [[0, Math.log(0.2), Math.log(0.2)]];
const masks = [[0, 1, 1]];

describe("truncated importance weights", () => {
  it("weighs each trained token by its ratio, cut to the cap, and counts the cut ones", () => {
    const result = importanceWeights(trainer, sampler, masks, 1.5, "token");
    expect(result.weights[0]).toEqual([0, 1.5, expect.closeTo(0.5, 12)]);
    expect(result.ratioMean).toBeCloseTo(1.25, 12);
    expect(result.ratioMax).toBeCloseTo(2, 12);
    expect(result.clippedShare).toBe(0.5);
  });

  it("weighs a whole sequence by the product of its ratios at the sequence level", () => {
    const result = importanceWeights(trainer, sampler, masks, 1.5, "sequence");
    expect(result.weights[0]).toEqual([0, expect.closeTo(1, 12), expect.closeTo(1, 12)]);
    expect(result.clippedShare).toBe(0);
  });

  it("gives untrained tokens and rows no weight and no say in the figures", () => {
    const result = importanceWeights([...trainer, [0, -9]], [...sampler, [0, -1]], [...masks, [0, 0]], 1.5, "token");
    expect(result.weights[1]).toEqual([0, 0]);
    expect(result.ratioMax).toBeCloseTo(2, 12);
  });
});
