import { describe, expect, it } from "vitest";
import { LossConfigSchema } from "../../../../src/training/backend.js";
import { UnsupportedRequestError } from "../../../../src/training/errors/unsupported-request-error.js";
import { aggregationScales, lossFnConfig, sequenceDatum } from "../../../../src/training/backends/tinker/scaled-advantages.js";

// Row 0 trains 2 tokens, row 1 trains 3, row 2 none (token 0's mask entry never counts).
const rows = [{ lossMask: [1, 0, 1, 1] }, { lossMask: [0, 1, 1, 1] }, { lossMask: [0, 0] }];

describe("aggregation as client-side scales", () => {
  it("sum leaves every row at 1", () => {
    expect(aggregationScales(rows, "sum")).toEqual([1, 1, 1]);
  });

  it("token-mean divides every row by the step's trained tokens", () => {
    expect(aggregationScales(rows, "token-mean")).toEqual([1 / 5, 1 / 5, 1 / 5]);
  });

  it("seq-mean-token-mean divides each row by its own tokens times the rows that train", () => {
    expect(aggregationScales(rows, "seq-mean-token-mean")).toEqual([1 / 4, 1 / 6, 0]);
  });

  it("seq-mean-token-sum divides by the rows that train, and its -norm also by the widest row's positions", () => {
    expect(aggregationScales(rows, "seq-mean-token-sum")).toEqual([1 / 2, 1 / 2, 0]);
    expect(aggregationScales(rows, "seq-mean-token-sum-norm")).toEqual([1 / 6, 1 / 6, 0]);
  });

  it("scales DRO's beta with a shared scale and refuses per-row scales", () => {
    const dro = LossConfigSchema.parse({ kind: "dro", beta: 0.1 });
    expect(lossFnConfig(dro, [0.5, 0.5]).beta).toBeCloseTo(0.05, 12);
    expect(() => lossFnConfig(dro, [0.25, 0.5])).toThrow(UnsupportedRequestError);
  });

  it("sends ppo's clip range as ratio thresholds", () => {
    expect(lossFnConfig(LossConfigSchema.parse({ kind: "ppo", clipLow: 0.2, clipHigh: 0.28 }), [1])).toEqual({ clip_low_threshold: 0.8, clip_high_threshold: 1.28 });
  });

  it("builds a shifted datum: input tokens[:-1], targets tokens[1:], advantages masked and scaled", () => {
    const datum = sequenceDatum({ tokens: [10, 11, 12, 13], lossMask: [0, 0, 1, 1], samplerLogprobs: [0, -1, -2, -3], advantage: 2 }, LossConfigSchema.parse({}), 0.5);
    expect(datum.modelInput).toEqual([10, 11, 12]);
    expect(datum.lossFnInputs.target_tokens!.values).toEqual([11, 12, 13]);
    expect(datum.lossFnInputs.logprobs!.values).toEqual([-1, -2, -3]);
    expect(datum.lossFnInputs.advantages!.values).toEqual([0, 1, 1]);
  });
});
