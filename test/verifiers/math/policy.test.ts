import { describe, expect, it } from "vitest";
import { gradeMath, MathPolicySchema } from "../../../verifiers/math/index.js";

const grade = (response: string, truth: string, policy = {}, choices?: string[]) =>
  gradeMath(`\\boxed{${response}}`, truth, policy, choices).correct;

describe("math policy flags", () => {
  it("accepts a decimal that the exact value rounds to, with enough significant digits, by default", () => {
    expect(grade("1.732", "\\sqrt{3}")).toBe(true);
    expect(grade("1.73", "\\sqrt{3}")).toBe(true);
    expect(grade("1.7", "\\sqrt{3}")).toBe(false);
    expect(grade("1.74", "\\sqrt{3}")).toBe(false);
  });

  it("rejects rounded decimals against exact values when acceptRoundedDecimals is off", () => {
    expect(grade("1.732", "\\sqrt{3}", { acceptRoundedDecimals: false })).toBe(false);
    expect(grade("0.5", "\\frac{1}{2}", { acceptRoundedDecimals: false })).toBe(true);
  });

  it("raises the digits a rounded decimal needs with minSignificantDigits", () => {
    expect(grade("1.73", "\\sqrt{3}", { minSignificantDigits: 4 })).toBe(false);
    expect(grade("1.732", "\\sqrt{3}", { minSignificantDigits: 4 })).toBe(true);
  });

  it("matches 10% against 10 and 0.1 by default, each behind its own flag", () => {
    expect(grade("10\\%", "10")).toBe(true);
    expect(grade("10\\%", "0.1")).toBe(true);
    expect(grade("10\\%", "10", { percentMatchesNumber: false })).toBe(false);
    expect(grade("10\\%", "0.1", { percentMatchesNumber: false })).toBe(true);
    expect(grade("10\\%", "0.1", { percentMatchesFraction: false })).toBe(false);
    expect(grade("10\\%", "10\\%", { percentMatchesNumber: false, percentMatchesFraction: false })).toBe(true);
  });

  it("matches degrees against radians only when degreesMatchRadians is on", () => {
    expect(grade("\\frac{\\pi}{6}", "30^\\circ")).toBe(false);
    expect(grade("\\frac{\\pi}{6}", "30^\\circ", { degreesMatchRadians: true })).toBe(true);
    expect(grade("\\frac{\\pi}{4}", "30^\\circ", { degreesMatchRadians: true })).toBe(false);
  });

  it("treats bare lists as unordered by default and ordered when unorderedLists is off", () => {
    expect(grade("3, 1, 2", "1, 2, 3")).toBe(true);
    expect(grade("3, 1, 2", "1, 2, 3", { unorderedLists: false })).toBe(false);
    expect(grade("1, 2, 3", "1, 2, 3", { unorderedLists: false })).toBe(true);
    expect(grade("(2, 1)", "(1, 2)")).toBe(false);
  });

  it("maps a choice letter to its value only when choices are given and the flag is on", () => {
    const choices = ["12", "13", "14", "15"];
    expect(grade("B", "13", {}, choices)).toBe(true);
    expect(grade("B", "13", {}, undefined)).toBe(false);
    expect(grade("B", "13", { choiceLetterMatchesValue: false }, choices)).toBe(false);
  });

  it("compares the right-hand side of x = 5 only when dropVariableAssignment is on", () => {
    expect(grade("5", "x = 5")).toBe(true);
    expect(grade("5", "x = 5", { dropVariableAssignment: false })).toBe(false);
  });

  it("grades only boxed answers when allowUnboxedFallback is off", () => {
    expect(gradeMath("The answer is 7", "7").correct).toBe(true);
    expect(gradeMath("The answer is 7", "7", { allowUnboxedFallback: false }).correct).toBe(false);
    expect(gradeMath("\\boxed{7}", "7", { allowUnboxedFallback: false }).correct).toBe(true);
    expect(gradeMath("7", "7", { allowUnboxedFallback: false }).correct).toBe(false);
  });

  it("rejects unknown policy keys", () => {
    expect(MathPolicySchema.safeParse({ unorderdLists: false }).success).toBe(false);
  });
});
