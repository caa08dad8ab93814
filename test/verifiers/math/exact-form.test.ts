import { describe, expect, it } from "vitest";
import { bigMath, compileExpression, type CompiledExpression } from "../../../verifiers/math/evaluate-expression.js";
import { evaluateInDigits, type DecimalClass } from "../../../verifiers/math/evaluate-in-digits.js";
import { exactForm, exactFormRatio, exactFormsEqual } from "../../../verifiers/math/exact-form.js";

// Exact forms prove two answers equal at any magnitude (issue #44); a different form proves nothing. Expressions here
// are in mathjs syntax, as latex-to-mathjs.ts writes them.
const compile = (expression: string): CompiledExpression => {
  const compiled = compileExpression(expression);
  if (!compiled) throw new Error(`mathjs cannot parse ${expression}`);
  return compiled;
};

describe("exact forms", () => {
  it.each([
    ["x^1000", "(x^10)^100"],
    ["e^(-1000)", "1/e^1000"],
    ["(x + 10^20) - 10^20", "x"],
    ["x + floor(x^2 / 10^40)", "floor(10^(-40) * x^2) + x"],
    ["sqrt(10^40 * x)", "10^20 * sqrt(x)"],
    ["sqrt(8)", "2 * sqrt(2)"],
    ["2^(n + 1)", "2 * 2^n"],
    ["(1/2)^x", "2^(-x)"],
    ["4^x", "2^(2 * x)"],
    ["sqrt(-1)", "i"],
    ["i^2", "-1"],
    ["(-8)^(1/3)", "2 * (-1)^(1/3)"],
    ["1 / (1 - x)", "-1 / (x - 1)"],
    ["(x + 1)^2", "x^2 + 2 * x + 1"],
    ["exp(x) * exp(-x)", "1"],
    ["x^(1/2) * x^(1/2)", "x"],
    ["(x^(1/3))^3", "x"],
    ["(2 * x + 2)^(1/2)", "sqrt(2) * (x + 1)^(1/2)"],
    ["5!", "120"],
    ["0.5 * x", "x / 2"],
    ["0.00000000000000000001", "10^(-20)"],
    // Too large to expand, so kept as powers of the sum.
    ["(x + y + z)^100", "(z + y + x)^100"],
    ["(1 + x)^255", "(x + 1)^255"],
  ])("%s is %s", (left, right) => {
    expect(exactForm(compile(left))).toBeDefined();
    expect(exactFormsEqual(compile(left), compile(right))).toBe(true);
  });

  // Equal ones the rules cannot prove (principal powers do not distribute over products, a logarithm is opaque) and
  // different ones: none has the other's form.
  it.each([
    ["sqrt(x^2)", "x"],
    ["(x^2)^(1/2)", "abs(x)"],
    ["sqrt(x) * sqrt(y)", "sqrt(x * y)"],
    ["(x^y)^z", "x^(y * z)"],
    ["(-x)^(1/2)", "i * x^(1/2)"],
    ["log(e^x)", "x"],
    ["nthRoot(x, 3)", "x^(1/3)"],
    ["x + 10^(-41)", "x"],
    ["(1 + 10^(-45)) * x", "x"],
    ["x^2 + e^(-1000)", "x^2"],
    ["0.3333333333333333 * x", "x / 3"],
    ["0.10000000000000001", "0.1"],
    ["1.234567890123456", "1.234567890123457"],
    ["x + floor(x^2 / 100)", "x"],
  ])("%s is not shown to be %s", (left, right) => {
    expect(exactFormsEqual(compile(left), compile(right))).toBe(false);
  });

  it.each([["Infinity - Infinity"], ["x / 0"], ["2^(2^(2^30))"], ["0^(-1)"]])("%s has no form", (expression) => {
    expect(exactForm(compile(expression))).toBeUndefined();
  });

  it("gives the ratio of proportional forms, as equations and relations use it", () => {
    expect(exactFormRatio(compile("2 * x - 4 * y"), compile("y - x / 2"))).toEqual({ numerator: -4n, denominator: 1n });
    expect(exactFormRatio(compile("x^1000 - y"), compile("(x^10)^100 - y"))).toEqual({ numerator: 1n, denominator: 1n });
    expect(exactFormRatio(compile("x + 10^(-41) - y"), compile("x - y"))).toBeUndefined();
  });

  // Soundness: random expressions that share a form must have one value. Each pair is evaluated in 80 digits (real
  // arithmetic) at four points, away from the float rounding that would blur a small difference.
  it("gives one form only to expressions of one value (seeded random expressions)", () => {
    const random = mulberry32(0xf0e4);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const leaves = ["x", "y", "x", "y", "2", "3", "4", "8", "9", "0.5", "1/3", "1/4", "pi", "e", "(-1)", "(-2)"];
    const expression = (depth: number): string => {
      if (depth === 0 || random() < 0.25) return pick(leaves);
      const part = () => expression(depth - 1);
      switch (Math.floor(random() * 9)) {
        case 0: return `(${part()} + ${part()})`;
        case 1: return `(${part()} - ${part()})`;
        case 2: return `(${part()} * ${part()})`;
        case 3: return `(${part()} / ${part()})`;
        case 4: return `(${part()})^(${pick(["2", "3", "-1", "-2", "1/2", "1/3", "2/3", "-1/2", "0.5", "x", "y"])})`;
        case 5: return `sqrt(${part()})`;
        // No floor: 80 digits put \sqrt[3]{64} a hair below 4, and its floor at 3.
        case 6: return `${pick(["sin", "abs", "exp", "log"])}(${part()})`;
        case 7: return `((${part()})^(${pick(["2", "1/2", "3", "-1"])}))^(${pick(["2", "1/2", "3", "-1", "1/3"])})`;
        default: return `(${part()} * ${part()} + ${part()})`;
      }
    };
    const byForm = new Map<string, string[]>();
    for (let index = 0; index < 6000; index += 1) {
      const text = expression(4);
      const form = exactForm(compile(text));
      if (form === undefined) continue;
      const texts = byForm.get(form.key) ?? [];
      if (!texts.includes(text)) texts.push(text);
      byForm.set(form.key, texts);
    }
    const decimal = (bigMath() as unknown as { BigNumber: DecimalClass }).BigNumber;
    const points = [{ x: 0.7, y: -1.3 }, { x: -2.1, y: 0.4 }, { x: 1.9, y: 2.3 }, { x: 0.45, y: 0.8 }];
    let compared = 0;
    const mismatches: string[] = [];
    for (const texts of byForm.values()) {
      const [first, ...others] = texts.map((text) => bigMath().parse(text));
      for (const [index, other] of others.entries()) {
        for (const point of points) {
          const [a, b] = [evaluateInDigits(first!, point, 80, decimal), evaluateInDigits(other, point, 80, decimal)];
          if (!a || !b) continue;
          compared += 1;
          const scale = [a.value.abs(), b.value.abs()].reduce((largest, value) => (value.greaterThan(largest) ? value : largest), new decimal(1));
          if (a.value.minus(b.value).abs().greaterThan(scale.times("1e-50"))) mismatches.push(`${texts[0]} | ${texts[index + 1]} at ${JSON.stringify(point)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(300);
  });
});

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
