import { describe, expect, it } from "vitest";
import { compileExpression } from "../../../verifiers/math/evaluate-expression.js";
import { hasPiecewiseTerm, wideDecades, wideSamplePoints } from "../../../verifiers/math/wide-sample-points.js";

const compiled = (expression: string) => compileExpression(expression)!;

describe("wide sample points", () => {
  it("are used for a floor, ceiling or absolute value of a variable only", () => {
    expect(hasPiecewiseTerm(compiled("x + floor(x^2 / 100)"))).toBe(true);
    expect(hasPiecewiseTerm(compiled("abs(x - 100)"))).toBe(true);
    expect(hasPiecewiseTerm(compiled("x + floor(3.7)"))).toBe(false);
    expect(hasPiecewiseTerm(compiled("sqrt(x^2)"))).toBe(false);
  });

  it("reach four decades past the largest constant, and not past 10^30", () => {
    expect(wideDecades([compiled("x + floor(x^2 / 100)"), compiled("x")])).toBe(6);
    expect(wideDecades([compiled("abs(x)"), compiled("sqrt(x^2)")])).toBe(5);
    expect(wideDecades([compiled("x + floor(x / 10^26)"), compiled("x")])).toBe(30);
    expect(wideDecades([compiled("x + floor(x / 10^27)"), compiled("x")])).toBeUndefined();
  });

  it("cover every decade with both signs, the same on every call", () => {
    const points = wideSamplePoints(3, 2);
    expect(points).toHaveLength(14);
    const decades = new Set(points.map(([x]) => Math.floor(Math.log10(Math.abs(x!)))));
    expect([...decades].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(points.filter(([x]) => x! < 0)).toHaveLength(7);
    expect(wideSamplePoints(3, 2)).toEqual(points);
  });
});
