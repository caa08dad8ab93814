import { describe, expect, it } from "vitest";
import { extractAnswer, lastBoxed } from "../../../verifiers/math/index.js";

describe("extractAnswer", () => {
  it("takes the last box with nested braces matched", () => {
    expect(lastBoxed("\\boxed{1} then \\boxed{\\frac{a}{b^{2}}}")).toBe("\\frac{a}{b^{2}}");
    expect(lastBoxed("\\fbox{7}")).toBe("7");
    expect(lastBoxed("no box")).toBeUndefined();
  });

  it("joins boxes that together form one answer but not boxes separated by prose", () => {
    expect(lastBoxed("$\\boxed{3}$ and $\\boxed{5}$")).toBe("3, 5");
    expect(lastBoxed("\\boxed{3}. Checking again, it is \\boxed{5}")).toBe("5");
  });

  it("joins boxes split by \\quad \\text{and} \\quad, a unit word or a label, and adjacent boxes only in a ground truth", () => {
    expect(lastBoxed("\\boxed{(2, 2)} \\quad \\text{and} \\quad \\boxed{(6, 2)}")).toBe("(2, 2), (6, 2)");
    expect(lastBoxed("\\boxed{1} papers and \\boxed{2}")).toBe("1, 2");
    expect(lastBoxed("\\(y_1 = \\boxed{a}\\) and \\(y_2 = \\boxed{b}\\)")).toBe("a, b");
    expect(lastBoxed("\\boxed{1} no no no \\boxed{2}")).toBe("2");
    expect(lastBoxed("\\boxed{1}\\boxed{2}")).toBe("2");
    expect(lastBoxed("\\boxed{1}\\boxed{2}", true)).toBe("1, 2");
  });

  it("prefers a final-answer phrase after the last box, and joins math spans split by a conjunction", () => {
    expect(extractAnswer("so $= \\boxed{255}$. The final answer is $10,455$. I hope it is correct.")?.text).toBe("10,455");
    const roots = "Substituting and simplifying for a while, the roots are \\(1\\) and \\(-2\\), as one can check.";
    expect(extractAnswer(roots)?.text).toBe("1, -2");
  });

  it("grades a short response by its last math span before taking it whole, and skips escaped dollars", () => {
    expect(extractAnswer("So it is $9$")).toEqual({ text: "9", source: "last-math" });
    expect(extractAnswer("Answer $ \\frac{1}{2} \\$ = 3 $")?.text).toBe("\\frac{1}{2} \\$ = 3");
  });

  it("reads <|begin_of_box|> markers and doubled backslashes", () => {
    expect(extractAnswer("<|begin_of_box|>12<|end_of_box|>")).toEqual({ text: "12", source: "boxed" });
    expect(extractAnswer("\\\\boxed{\\\\frac{1}{2}}")?.text).toBe("\\frac{1}{2}");
  });

  it("uses the text after </think> and keeps a response without it whole", () => {
    expect(extractAnswer("<think>\\boxed{1}</think>\\boxed{2}")?.text).toBe("2");
    expect(extractAnswer("plain \\boxed{2}")?.text).toBe("2");
  });

  it("falls back to answer phrases, then the last math, then a short response", () => {
    expect(extractAnswer("Final Answer: The final answer is $42$. I hope it is correct.")).toEqual({ text: "$42$", source: "answer-phrase" });
    expect(extractAnswer("work\nAnswer: 16")?.text).toBe("16");
    const long = "A long derivation that goes on for quite a while before it reaches its result, which is $\\frac{2}{3}$";
    expect(extractAnswer(long)).toEqual({ text: "\\frac{2}{3}", source: "last-math" });
    expect(extractAnswer("9")).toEqual({ text: "9", source: "whole" });
  });

  it("finds nothing in a long response without an answer, and no fallback when disabled", () => {
    expect(extractAnswer("I cannot solve this problem because some of the information it needs is missing from it.")).toBeUndefined();
    expect(extractAnswer("Answer: 3", { allowUnboxedFallback: false })).toBeUndefined();
  });

  it("takes a whole ground truth of any length when it has no box", () => {
    const truth = "x^2 + 2x + 1 where x is the number of apples in the basket described above in the problem";
    expect(extractAnswer(truth, { isGroundTruth: true })?.source).toBe("whole");
  });
});
