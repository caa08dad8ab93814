import { afterAll, describe, expect, it } from "vitest";
import { mathGradeVerifier } from "../../../verifiers/math/index.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

describe("the math grade verifier", () => {
  it("scores answers that crashed the grader as 0, not as infrastructure errors (issue #29: 1/4, not 1/3 scored)", async () => {
    const rows = [
      { id: "right", response: "\\boxed{2}", ground_truth: "2" },
      { id: "sqrt", response: "\\boxed{\\sqrt\\}", ground_truth: "2" },
      { id: "power", response: "\\boxed{2^\\}", ground_truth: "2" },
      { id: "wrong", response: "\\boxed{3}", ground_truth: "2" },
    ];
    const scores = await mathGradeVerifier.gradeRows(rows, { flags: {}, concurrency: 1 }, testRun.evaluatorContext());
    expect(scores.map((score) => [score.status, score.isCorrect, score.signals.infraError ?? 0])).toEqual([
      ["scored", true, 0],
      ["scored", false, 0],
      ["scored", false, 0],
      ["scored", false, 0],
    ]);
  });
});
