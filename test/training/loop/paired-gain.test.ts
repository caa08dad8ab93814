import { describe, expect, it } from "vitest";
import { pairedGain } from "../../../src/training/loop/paired-gain.js";

describe("pairedGain", () => {
  it("takes the mean per-task difference and its standard error over tasks", () => {
    // differences [0.5, 0, 0.25, -0.25]: mean 0.125
    const gain = pairedGain([0, 0.5, 0.25, 1], [0.5, 0.5, 0.5, 0.75]);
    expect(gain.mean).toBeCloseTo(0.125, 10);
    // sum of squared deviations = 0.140625 + 0.015625 + 0.015625 + 0.140625 = 0.3125; /3 /4 → sqrt(0.026041…)
    expect(gain.stderr).toBeCloseTo(Math.sqrt(0.3125 / 3 / 4), 10);
    expect(gain.tasks).toBe(4);
  });

  it("is far tighter than the unpaired spread when every task moves the same way", () => {
    const before = [0, 0.25, 0.5, 0.75];
    const gain = pairedGain(before, before.map((value) => value + 0.25));
    expect(gain.mean).toBeCloseTo(0.25, 10);
    expect(gain.stderr).toBeCloseTo(0, 10);
  });

  it("refuses validations of different task sets", () => {
    expect(() => pairedGain([0, 1], [1])).toThrow(/2 tasks before but 1 after/);
  });
});
