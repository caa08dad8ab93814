import { describe, expect, it } from "vitest";
import { scheduledLearningRate } from "../../../src/training/sft/learning-rate-schedule.js";

const rates = (schedule: "constant" | "linear" | "cosine", warmup: number) =>
  Array.from({ length: 6 }, (_, index) => scheduledLearningRate(index + 1, 6, 1, schedule, warmup));

describe("scheduledLearningRate", () => {
  it("ramps up linearly over the warmup steps, then holds for constant", () => {
    expect(rates("constant", 2)).toEqual([0.5, 1, 1, 1, 1, 1]);
  });

  it("decays linearly from the peak after warmup, still above 0 on the last step", () => {
    expect(rates("linear", 2)).toEqual([0.5, 1, 1, 0.75, 0.5, 0.25]);
  });

  it("decays along a half cosine from the peak", () => {
    const cosine = rates("cosine", 0);
    expect(cosine[0]).toBe(1);
    expect(cosine[3]).toBeCloseTo(0.5, 10);
    expect(cosine[5]).toBeGreaterThan(0);
    for (let index = 1; index < cosine.length; index++) expect(cosine[index]!).toBeLessThan(cosine[index - 1]!);
  });
});
