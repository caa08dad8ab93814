import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { extractChoice } from "../../../verifiers/choice/extract-choice.js";
import { gradeChoice } from "../../../verifiers/choice/grade-choice.js";
import { choiceGradeVerifier } from "../../../verifiers/choice/choice-grade-verifier.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

interface RecordedReply {
  model: string;
  recorded: string;
  options: string[];
  correct: string;
  officialExtraction: string | null;
  expected: string;
  response: string;
}
const fixture = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "recorded-replies.json"), "utf8")) as { cases: RecordedReply[] };
const found = (response: string, options: readonly string[]) => {
  const choice = extractChoice(response, options.length, options);
  return choice.kind === "letter" ? choice.letter : choice.kind === "tie" ? `tie:${choice.letters.join("")}` : "none";
};

describe("extractChoice on real model replies", () => {
  it.each(fixture.cases.map((reply, index) => [index, reply] as const))("reply %i takes the letter a reader takes", (_index, reply) => {
    expect(found(reply.response, reply.options), `${reply.model} (${reply.recorded})`).toBe(reply.expected);
  });

  it("agrees with MMLU-Pro's own extractor wherever that found a letter, and finds more where it found none", () => {
    const official = fixture.cases.filter((reply) => reply.officialExtraction !== null);
    expect(official.length).toBeGreaterThanOrEqual(20);
    for (const reply of official) expect(found(reply.response, reply.options)).toBe(reply.officialExtraction);
    const missed = fixture.cases.filter((reply) => reply.officialExtraction === null && reply.model !== "SmolLM2-135M-Instruct (Q4_1 GGUF)");
    expect(missed.filter((reply) => reply.expected !== "none").length).toBeGreaterThanOrEqual(10);
  });
});

describe("extractChoice on the standard answer forms", () => {
  const four = ["Paris", "London", "Rome", "Berlin"];
  it.each([
    ["The answer is (C).", "C"],
    ["so the final answer is \\boxed{C}", "C"],
    ["Final: \\boxed{\\text{C}}", "C"],
    ["**C**", "C"],
    ["The answer is **C**.", "C"],
    ["Answer: C", "C"],
    ["**Answer:** $C$", "C"],
    ["(C)", "C"],
    ["C.", "C"],
    ["The correct option is C because Rome is the capital.", "C"],
    ["After checking each city, the capital is:\nRome", "C"],
    ["C. Rome", "C"],
    ["First I thought the answer is A, but the answer is B.", "B"],
    ["The answer is A or C.", "tie:AC"],
    ["\\boxed{A, C}", "tie:AC"],
    ["I am not sure.", "none"],
    ["The answer is a trick question.", "none"],
    ["The answer is (E).", "none"],
    ["<think>the answer is A</think>The answer is D.", "D"],
  ])("%j → %s", (response, expected) => {
    expect(found(response, four)).toBe(expected);
  });
});

describe("gradeChoice", () => {
  const options = ["2", "3", "5", "7"];
  it("scores the correct letter 1 and another letter 0", () => {
    expect(gradeChoice("The answer is (C)", options, "C")).toMatchObject({ value: 1, isCorrect: true, answer: "C" });
    expect(gradeChoice("The answer is (B)", options, "C")).toMatchObject({ value: 0, isCorrect: false, answer: "B" });
  });

  it("scores a tie and no answer 0, saying which", () => {
    expect(gradeChoice("The answer is B or C", options, "C")).toMatchObject({ value: 0, isCorrect: false, explanation: "several answers at once (B, C)" });
    expect(gradeChoice("no idea", options, "C")).toMatchObject({ value: 0, isCorrect: false, explanation: "no answer letter in the reply" });
  });

  it("leaves unscored a choice of the correct option's twin (a duplicated option), and still scores the others", () => {
    const duplicated = ["2", "3", "5", "3"];
    expect(gradeChoice("The answer is (D)", duplicated, "B")).toMatchObject({ status: "unscored", answer: "D" });
    expect(gradeChoice("The answer is 3", duplicated, "B")).toMatchObject({ status: "unscored" });
    expect(gradeChoice("The answer is (B)", duplicated, "B")).toMatchObject({ status: "scored", value: 1 });
    expect(gradeChoice("The answer is (C)", duplicated, "B")).toMatchObject({ status: "scored", value: 0 });
    expect(gradeChoice("The answer is B or C", duplicated, "B")).toMatchObject({ status: "scored", value: 0 });
  });

  it("grades rows through rllm grade --verifier choice", async () => {
    const rows = [
      { response: "Answer: D", choices: options, ground_truth: "D" },
      { response: "Answer: A", choices: options, ground_truth: "D" },
    ].map((row) => choiceGradeVerifier.rowSchema.parse(row));
    expect((await choiceGradeVerifier.gradeRows(rows, { flags: {} }, testRun.evaluatorContext())).map((score) => score.value)).toEqual([1, 0]);
    expect(choiceGradeVerifier.rowSchema.safeParse({ response: "x", choices: options, ground_truth: "E" }).success).toBe(false);
  });
});
