import { describe, expect, it } from "vitest";
import { scored, unscored } from "../../src/core/score.js";

describe("scored and unscored", () => {
  it("write the verdict first, then answer, explanation, signals and details, whatever order the fields came in", () => {
    const score = scored(1, true, { details: { tests: 3 }, signals: { passedTests: 3 }, explanation: "3 of 3 tests passed", answer: "print(1)" });
    expect(JSON.stringify(score)).toBe(
      '{"value":1,"isCorrect":true,"status":"scored","answer":"print(1)","explanation":"3 of 3 tests passed","signals":{"passedTests":3},"details":{"tests":3}}',
    );
  });

  it("leave out the fields not given, keeping signals as an empty record", () => {
    expect(JSON.stringify(scored(0, false))).toBe('{"value":0,"isCorrect":false,"status":"scored","signals":{}}');
    expect(JSON.stringify(unscored("free-text gold answer", { answer: "x" }))).toBe(
      '{"value":0,"isCorrect":false,"status":"unscored","answer":"x","explanation":"free-text gold answer","signals":{}}',
    );
  });
});
