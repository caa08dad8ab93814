import { describe, expect, it } from "vitest";
import { bigNumbersEqual, compileExpression } from "../../../verifiers/math/evaluate-expression.js";

// bigNumbersEqual keeps each compiled expression's 64-digit values per scope, so that a ground truth is evaluated once
// for all the responses graded against it. A kept value must be the one a fresh evaluation would give.
describe("bigNumbersEqual's kept 64-digit values", () => {
  it("gives the same answer the second time as the first, at the same point", () => {
    const truth = compileExpression("2*sin(x)*cos(x)")!;
    const response = compileExpression("sin(2*x)")!;
    const nearMiss = compileExpression("sin(2*x) + 10^(-30)")!;
    for (let round = 0; round < 2; round += 1) {
      expect(bigNumbersEqual(truth, response, { x: 0.7 })).toBe(true);
      expect(bigNumbersEqual(truth, nearMiss, { x: 0.7 })).toBe(false);
    }
  });

  it("tells sample points apart, so that a value kept at one point is not used at another", () => {
    const truth = compileExpression("x^2")!;
    const agreesAtOneOnly = compileExpression("x^2 + (x - 0.5)*10^(-30)")!;
    expect(bigNumbersEqual(truth, agreesAtOneOnly, { x: 0.5 })).toBe(true);
    expect(bigNumbersEqual(truth, agreesAtOneOnly, { x: 0.7 })).toBe(false);
  });

  it("keys a value by the whole scope: the other side's variable can shadow one of this side's functions", () => {
    // `sin` bound in the scope (a variable of the other side, `sin * x`) replaces the function, so sin(x) cannot be
    // evaluated there, though it can at the same x without it.
    const truth = compileExpression("sin(x)")!;
    const same = compileExpression("sin(x) + 0")!;
    expect(bigNumbersEqual(truth, same, { x: 0.7 })).toBe(true);
    expect(bigNumbersEqual(truth, same, { sin: 1.5, x: 0.7 })).toBeUndefined();
  });
});
