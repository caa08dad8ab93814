import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gradeMath } from "../../../verifiers/math/index.js";

// Answers crafted to make the grader score a wrong answer (a tiny added term, a floor term the sample points do not
// see, an unknown unit dropped) or spend seconds (a 100,000-digit answer), and the right answers beside them that the
// defences must still score 1 (issue #44). In any text, <<N×unit>> stands for unit repeated N times.
interface AdversarialCase {
  group: string;
  ground_truth: string;
  response: string;
  expected: boolean;
  /** The verdict's reason holds this, when given. */
  reason?: string;
  note: string;
}

const expand = (text: string) => text.replace(/<<(\d+)×([^>]*)>>/g, (_match, count: string, unit: string) => unit.repeat(Number(count)));
const cases = readFileSync(new URL("./adversarial-answers.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as AdversarialCase);

describe("adversarial math answers", () => {
  it("hold wrong answers and right answers in every group", () => {
    for (const group of new Set(cases.map((row) => row.group))) {
      expect(new Set(cases.filter((row) => row.group === group).map((row) => row.expected)), group).toEqual(new Set([true, false]));
    }
  });

  it.each(cases.map((row, index) => [index + 1, row.group, row.note, row] as const))("case %i (%s): %s", (_line, _group, _note, row) => {
    const verdict = gradeMath(expand(row.response), expand(row.ground_truth));
    expect(verdict.correct, verdict.reason).toBe(row.expected);
    expect(verdict.reward).toBe(row.expected ? 1 : 0);
    if (row.reason !== undefined) expect(verdict.reason).toContain(row.reason);
  });
});
