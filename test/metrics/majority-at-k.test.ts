import { describe, expect, it } from "vitest";
import { majorityIsCorrect } from "../../src/metrics/majority-at-k.js";

describe("majorityIsCorrect", () => {
  it("follows the most common answer among the first k attempts", () => {
    const attempts = [
      { attempt: 0, answer: "4", isCorrect: true },
      { attempt: 1, answer: "5", isCorrect: false },
      { attempt: 2, answer: "5", isCorrect: false },
      { attempt: 3, answer: "4", isCorrect: true },
    ];
    expect(majorityIsCorrect(attempts, 3)).toBe(false);
    expect(majorityIsCorrect(attempts, 1)).toBe(true);
    // 2–2 tie: the answer seen first wins.
    expect(majorityIsCorrect(attempts, 4)).toBe(true);
  });

  it("ignores attempts without an answer", () => {
    expect(majorityIsCorrect([{ attempt: 0, answer: undefined, isCorrect: false }, { attempt: 1, answer: "x", isCorrect: true }], 2)).toBe(true);
  });
});
