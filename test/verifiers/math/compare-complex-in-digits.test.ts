import { describe, expect, it } from "vitest";
import { compareComplexInDigits } from "../../../verifiers/math/compare-complex-in-digits.js";
import { compileExpression, type CompiledExpression } from "../../../verifiers/math/evaluate-expression.js";

// Complex values compared in decimal digits (issue #44): floats agree on a part below their rounding, and mathjs's
// 64-digit BigNumbers have no complex values. Expressions in mathjs syntax.
const compile = (expression: string): CompiledExpression => {
  const compiled = compileExpression(expression);
  if (!compiled) throw new Error(`mathjs cannot parse ${expression}`);
  return compiled;
};
const compare = (left: string, right: string, scope: Record<string, number> = {}) => compareComplexInDigits(compile(left), compile(right), scope);

describe("compareComplexInDigits", () => {
  it.each([
    ["6 - 5i", "6.0000000000001 - 5i"],
    ["i", "i + 10^(-13)"],
    ["(1 + i)^10", "32i + 10^(-20)"],
    ["sqrt(-1 - x^2)", "sqrt(-1 - x^2) + 10^(-41)"],
  ])("tells %s from %s", (left, right) => {
    expect(compare(left, right, { x: 0.7 })).toBe("different");
  });

  it.each([
    ["exp(i * pi / 3)", "1/2 + sqrt(3) / 2 * i"],
    ["1 / (1 + i)", "(1 - i) / 2"],
    // Principal branches as mathjs takes them: the cube root of -8 with argument π/3, the logarithm of a negative
    // number with argument π, also when it is written -x (whose zero imaginary part decimal.js keeps as -0).
    ["(-8)^(1/3)", "1 + sqrt(3) * i"],
    ["log(-x)", "log(x) + i * pi"],
    ["sqrt(-4)", "2i"],
    ["abs(3 + 4i)", "5"],
  ])("finds %s equal to %s", (left, right) => {
    expect(compare(left, right, { x: 1.3 })).toBe("equal");
  });

  it("leaves what it does not model undecided", () => {
    expect(compare("sin(i)", "i * sinh(1)")).toBeUndefined();
    expect(compare("1 / (i - i)", "1")).toBeUndefined();
  });
});
