import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gradeMathUnderPolicy } from "../../../verifiers/math/grade-math-under-policy.js";
import { gradeMath } from "../../../verifiers/math/index.js";
import { defaultMathPolicy } from "../../../verifiers/math/math-policy.js";

// Malformed LaTeX (dangling commands, unbalanced groups, missing arguments, absurd sizes), found by fuzzing the parser
// and written out here. `\sqrt\` and `2^\` made latex-to-mathjs.ts dereference a null match (issue #29). Whatever a
// response holds, the grader returns a verdict: a malformed answer is a scored 0, never an exception.
const cases = readFileSync(new URL("./malformed-latex.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { latex: string }).latex);

describe("malformed LaTeX", () => {
  it.each(cases)("grades \\boxed{%s} as a 0 against a well-formed ground truth, without throwing", (latex) => {
    for (const truth of ["2", "x^2", "(1, 2)", "[0, 1)"]) {
      const verdict = gradeMath(`\\boxed{${latex}}`, truth);
      expect(verdict.correct, verdict.reason).toBe(false);
      expect(verdict.reward).toBe(0);
    }
  });

  it.each(cases)("grades a well-formed answer against the ground truth %s without throwing", (latex) => {
    expect(() => gradeMath("\\boxed{2}", latex)).not.toThrow();
  });

  it("turns an exception inside the grader into a scored 0 explained as unparseable", () => {
    // No answer in the table throws any more; a policy whose flag throws when read stands in for the next parser bug.
    const throwingPolicy = new Proxy(defaultMathPolicy, {
      get: (target, key) => {
        if (key === "unorderedLists") throw new TypeError("Cannot read properties of null (reading '0')");
        return target[key as keyof typeof target];
      },
    });
    const verdict = gradeMathUnderPolicy("\\boxed{1, 2}", "2, 1", throwingPolicy);
    expect(verdict).toEqual({ correct: false, reward: 0, reason: "unparseable: the grader failed on this answer (Cannot read properties of null (reading '0'))" });
  });
});
