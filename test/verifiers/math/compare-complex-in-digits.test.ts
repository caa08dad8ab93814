import { describe, expect, it } from "vitest";
import { compareComplexInDigits, complexValueInDigits } from "../../../verifiers/math/compare-complex-in-digits.js";
import { compileExpression, evaluateComplex, type CompiledExpression } from "../../../verifiers/math/evaluate-expression.js";

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
    ["1", "1 + 10^(-13) i"],
    ["sqrt(-2)", "sqrt(-2) + 10^(-13)"],
    ["acos(2)", "acos(2) + 10^(-13)"],
    ["sin(1 + 2i)", "sin(1 + 2i) + 10^(-13) i"],
    // A real value reached through complex ones, which mathjs's real 64 digits cannot evaluate.
    ["i^i", "e^(-pi/2) + 10^(-14)"],
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
    ["i^i", "e^(-pi/2)"],
    ["exp(i * pi)", "-1"],
    ["log(-8, 2)", "3 + i * pi / log(2)"],
    ["sin(i)", "i * sinh(1)"],
    ["asin(2)", "pi / 2 - i * log(2 + sqrt(3))"],
    ["acos(-2)", "pi - i * log(2 + sqrt(3))"],
    ["(x + i)^2", "x^2 + 2 i x - 1"],
  ])("finds %s equal to %s", (left, right) => {
    expect(compare(left, right, { x: 1.3 })).toBe("equal");
  });

  it("leaves what it does not model undecided", () => {
    expect(compare("sinh(i)", "i * sin(1)")).toBeUndefined();
    expect(compare("gamma(i)", "gamma(i)")).toBeUndefined();
    expect(compare("1 / (i - i)", "1")).toBeUndefined();
  });
});

describe("complexValueInDigits", () => {
  // Principal branches as mathjs's floats take them: a branch taken otherwise would make right answers differ.
  it.each([
    "log(-1)", "log(-2 - 3i)", "log(-8, 2)", "log10(-10)", "log(-x)", "sqrt(-4)", "sqrt(-3 - 4i)", "(-8)^(1/3)", "i^i",
    "e^(2 pi i / 3)", "acos(2)", "acos(-2)", "acos(0.3)", "asin(2)", "asin(-2)", "asin(0.5 + 2i)", "asin(0.5 - 2i)",
    "acos(-0.5 - 2i)", "sin(1 + 2i)", "cos(1 - 2i)", "tan(i)", "tan(0.7 - 1.2i)", "(1 + i)^10", "(2 - i)^(-3)",
    "abs(3 + 4i)", "floor(2.5) + i", "nthRoot(-8, 3) + i", "x^2 + 2 i x - 1", "sqrt(x) * sqrt(x)",
  ])("agrees with mathjs's floats on %s", (expression) => {
    const scope = { x: -1.7 };
    const float = evaluateComplex(compile(expression), scope)!;
    const digits = complexValueInDigits(compile(expression), scope, 64)!;
    expect(digits.re.toNumber()).toBeCloseTo(float.real, 12);
    expect(digits.im.toNumber()).toBeCloseTo(float.imaginary, 12);
  });

  it("gives no value for what it does not model", () => {
    for (const expression of ["gamma(i)", "log(0)", "1 / (i - i)", "atan(2i)", "sinh(1 + i)", "y + i"]) {
      expect(complexValueInDigits(compile(expression), {}, 64), expression).toBeUndefined();
    }
  });
});
