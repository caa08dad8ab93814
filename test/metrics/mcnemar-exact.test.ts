import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mcnemarExactPValue } from "../../src/metrics/mcnemar-exact.js";

const cases: { onlyA: number; onlyB: number; expected: number; why: string }[] = JSON.parse(
  readFileSync(new URL("../fixtures/metrics/mcnemar-cases.json", import.meta.url), "utf8"),
);

describe("mcnemarExactPValue", () => {
  it.each(cases)("$onlyA vs $onlyB discordant tasks: p = $expected ($why)", ({ onlyA, onlyB, expected }) => {
    expect(mcnemarExactPValue(onlyA, onlyB)).toBeCloseTo(expected, 12);
  });

  it("stays a probability for thousands of evenly split discordant tasks", () => {
    const p = mcnemarExactPValue(2500, 2600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThanOrEqual(1);
  });
});
