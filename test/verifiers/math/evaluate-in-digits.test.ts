import { describe, expect, it } from "vitest";
import { compareInDigits, floatsVouchFor } from "../../../verifiers/math/compare-in-digits.js";
import { evaluateInDigits, type DecimalClass } from "../../../verifiers/math/evaluate-in-digits.js";
import { bigMath, compileExpression } from "../../../verifiers/math/evaluate-expression.js";

const decimal = () => (bigMath() as unknown as { BigNumber: DecimalClass }).BigNumber;
const evaluate = (expression: string, scope: Record<string, number>, digits: number) =>
  evaluateInDigits(bigMath().parse(expression), scope, digits, decimal());
const compiled = (expression: string) => compileExpression(expression)!;

describe("evaluateInDigits", () => {
  it("evaluates in the digits asked for and reports the decimal exponents met on the way", () => {
    const result = evaluate("x + exp(-1000)", { x: 0.3 }, 500)!;
    // exp(-1000) = 5.07e-435: far below the rounding of 64 digits, kept in 500.
    expect(result.value.minus("0.3").toExponential(2)).toBe("5.08e-435");
    expect([result.smallestExponent, result.largestExponent]).toEqual([-435, 3]);
  });

  it("keeps a cancellation's rounding noise out of the magnitudes, but not a literal's real difference", () => {
    expect(evaluate("log(e) - 1", {}, 64)!.smallestExponent).toBe(0);
    expect(evaluate("sqrt(2) - 1.4142135623730950488016887242096980785696718753769", {}, 100)!.smallestExponent).toBe(-50);
  });

  it("gives no value off the reals or for what it does not model", () => {
    for (const expression of ["sqrt(-1)", "log(0)", "(-8)^(1/3)", "i", "Infinity", "gamma(2.5)", "1/0"]) {
      expect(evaluate(expression, {}, 64), expression).toBeUndefined();
    }
    expect(evaluate("nthRoot(-8, 3)", {}, 64)!.value.toNumber()).toBe(-2);
  });
});

describe("compareInDigits", () => {
  it("leaves to 64 digits what floats vouch for, and grows the digits with the magnitudes otherwise", () => {
    expect(floatsVouchFor(compiled("x^2 + 1"), { x: 0.3 })).toBe(true);
    for (const expression of ["x + 10^(-41)", "x + exp(-1000)", "(x + 1) - x - 1", "x + 0.1234567890123456789"]) {
      expect(floatsVouchFor(compiled(expression), { x: 0.3 }), expression).toBe(false);
    }
    expect(compareInDigits(compiled("x + 10^(-41)"), compiled("x"), { x: 0.3 })).toEqual({ kind: "different", digits: 148 });
    expect(compareInDigits(compiled("x / 10^20"), compiled("10^(-20) x"), { x: 0.3 })).toEqual({ kind: "equal", digits: 146 });
  });

  it("is undecided past 320 digits", () => {
    expect(compareInDigits(compiled("x + 10^(-200)"), compiled("x"), { x: 0.3 })).toEqual({ kind: "undecided" });
  });
});
