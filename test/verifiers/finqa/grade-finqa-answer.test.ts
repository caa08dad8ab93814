// The grader against real FinQA gold answers from the bundled sample: correct, rounded, percent/fraction and wrong replies.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gradeFinqaAnswer } from "../../../verifiers/finqa/grade-finqa-answer.js";
import { packagePath } from "../../../src/core/package-root.js";

interface GradeCase {
  id: string;
  response: string;
  verdict: "correct" | "incorrect";
  why: string;
}

const cases: GradeCase[] = JSON.parse(readFileSync(new URL("./grade-cases.json", import.meta.url), "utf8"));
const goldById = new Map<string, number | string>(
  readFileSync(packagePath("benchmarks/finqa/data/finqa_sample.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))
    .map((row: { id: string; exe_ans: number | string }) => [row.id, row.exe_ans]),
);

describe("gradeFinqaAnswer on bundled FinQA gold answers", () => {
  it.each(cases)("$id: $response → $verdict ($why)", (testCase) => {
    const gold = goldById.get(testCase.id);
    expect(gold, `gold of ${testCase.id} in the bundled sample`).toBeDefined();
    expect(gradeFinqaAnswer(testCase.response, gold!).verdict).toBe(testCase.verdict);
  });

  it("gives every numeric gold answer of the sample full marks when written back as the reply", () => {
    for (const [id, gold] of goldById) {
      const grade = gradeFinqaAnswer(`FINAL ANSWER: ${gold}`, gold);
      expect(grade.verdict, id).toBe("correct");
    }
  });

  it("refuses a 1% near miss of every numeric gold answer", () => {
    for (const [id, gold] of goldById) {
      if (typeof gold !== "number" || gold === 0) continue;
      const grade = gradeFinqaAnswer(`FINAL ANSWER: ${(gold * 1.01).toFixed(6)}`, gold);
      expect(grade.verdict, id).toBe("incorrect");
    }
  });
});

describe("gradeFinqaAnswer on free-text gold answers (rLLM/finqa)", () => {
  it("grades a gold string that holds one number numerically, in the gold's own units", () => {
    expect(gradeFinqaAnswer("FINAL ANSWER: 1,234", "$1,234 million").verdict).toBe("correct");
    expect(gradeFinqaAnswer("FINAL ANSWER: $1.234 billion", "$1,234 million").verdict).toBe("correct");
    expect(gradeFinqaAnswer("FINAL ANSWER: 12.46%", "12.5%").verdict).toBe("correct");
    expect(gradeFinqaAnswer("FINAL ANSWER: 13.5%", "12.5%").verdict).toBe("incorrect");
  });

  it("says a judge is needed when the gold holds several numbers", () => {
    const grade = gradeFinqaAnswer("FINAL ANSWER: 20%", "Revenue rose from $10 million to $12 million, up 20%.");
    expect(grade.verdict).toBe("needs-judge");
  });

  it("reads yes/no gold strings case-insensitively", () => {
    expect(gradeFinqaAnswer("FINAL ANSWER: YES", "Yes").verdict).toBe("correct");
  });
});
