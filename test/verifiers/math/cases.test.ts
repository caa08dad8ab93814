import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gradeMath } from "../../../verifiers/math/index.js";

// The case table: (ground truth, response, expected) written from the public behaviour of the reference checkers
// (math-verify, Hendrycks MATH, PRM800K, Qwen2.5-Math, rLLM, Minerva) and real Geo3K answers.
interface Case {
  group: string;
  ground_truth: string;
  response: string;
  expected: boolean;
  choices?: string[];
}

const cases = readFileSync(new URL("./cases.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Case);

describe("math verifier case table", () => {
  it("has several hundred cases covering every group, with both verdicts", () => {
    expect(cases.length).toBeGreaterThanOrEqual(500);
    expect(new Set(cases.map((row) => row.group)).size).toBeGreaterThanOrEqual(10);
    expect(cases.filter((row) => !row.expected).length).toBeGreaterThan(150);
  });

  it.each(cases.map((row, index) => [index + 1, row.group, row.ground_truth, row.response, row] as const))(
    "case %i (%s): %s vs %s",
    (_line, _group, _truth, _response, row) => {
      const verdict = gradeMath(row.response, row.ground_truth, undefined, row.choices);
      expect(verdict.correct, verdict.reason).toBe(row.expected);
      expect(verdict.reward).toBe(row.expected ? 1 : 0);
    },
  );
});
