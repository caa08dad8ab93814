import { describe, expect, it } from "vitest";
import { packTokenBatch } from "../../../src/models/tiny/token-batch.js";

describe("packTokenBatch", () => {
  it("places each token's weight at the target position that predicts it", () => {
    const packed = packTokenBatch([[5, 6, 7]], [[0, 0.5, 1]]);
    expect([...packed.targetWeights]).toEqual([0.5, 1]);
  });

  it("names the sequence whose weights are missing instead of reading undefined", () => {
    expect(() => packTokenBatch([[5, 6], [7, 8]], [[0, 1]])).toThrow("Sequence 1 has 2 tokens but 0 weights");
  });
});
