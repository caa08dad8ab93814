/**
 * Complex values in digits grown with their magnitudes (issue #44): floats agree on `6-5i` and `6.0000000000001-5i`,
 * on `ix` and `(1+10^{-13})ix`, and mathjs's 64-digit BigNumbers have no complex values, so such answers agreed, as did
 * `e^{-\pi/2}+10^{-14}` and `i^i`, a real value reached through complex ones. Here a value is a pair of decimals
 * (mathjs's decimal.js class), with the principal branches mathjs takes (`\sqrt{-4}` is 2i, `(-8)^{1/3}` is
 * 1+\sqrt{3}i, `\arccos 2` is 1.3169…i), compared as compare-in-digits.ts compares real values. Modelled for complex
 * values: arithmetic, powers, sqrt, exp, log (any base), abs, sin, cos, tan, asin and acos; any other function only
 * of real values, as evaluate-in-digits.ts computes it.
 */
import type { BigNumber, MathNode } from "mathjs";
import { bigMath, type CompiledExpression } from "./evaluate-expression.js";
import { bigNodeOf, isAffordable, literalDigitsOf } from "./compare-in-digits.js";
import { applyInDigits, decimalWithDigits, symbolValue, type DecimalClass } from "./evaluate-in-digits.js";

/** `equal` or `different` in the grown digits; undefined when they cannot be reached or a value is not modelled. */
export type ComplexDigitsOutcome = "equal" | "different" | undefined;

/** A complex value as a pair of decimals. */
export interface Complex {
  re: BigNumber;
  im: BigNumber;
}

interface NodeShape {
  type: string;
  name?: string;
  value?: unknown;
  fn?: string | { name?: string };
  args?: MathNode[];
  content?: MathNode;
}

class NotModelled extends Error {}

// As compare-in-digits.ts: 64 digits when nothing grows them, and rounding that may climb 24 digits.
const baseDigits = 64;
const slackDigits = 24;
// Integer powers up to this are multiplied out (exactly, as mathjs does for a complex base); others take logarithms.
const maxIntegerPower = 10_000;

/** `left` against `right` at `scope` in complex arithmetic of digits grown with the magnitudes both sides meet. */
export function compareComplexInDigits(left: CompiledExpression, right: CompiledExpression, scope: Record<string, number>): ComplexDigitsOutcome {
  const [leftNode, rightNode] = [bigNodeOf(left), bigNodeOf(right)];
  if (!leftNode || !rightNode) return undefined;
  const decimal = (bigMath() as unknown as { BigNumber: DecimalClass }).BigNumber;
  const base = Math.max(baseDigits, Math.max(literalDigitsOf(left), literalDigitsOf(right)) + baseDigits - slackDigits);
  const [leftBase, rightBase] = [evaluate(leftNode, scope, base, decimal), evaluate(rightNode, scope, base, decimal)];
  if (!leftBase || !rightBase) return undefined;
  const smallest = Math.min(leftBase.smallest, rightBase.smallest, 0);
  const largest = Math.max(leftBase.largest, rightBase.largest, 0);
  const digits = base + 2 * (largest - smallest);
  if (!isAffordable(digits, left, right)) return undefined;
  const [leftValue, rightValue] = [evaluate(leftNode, scope, digits, decimal), evaluate(rightNode, scope, digits, decimal)];
  if (!leftValue || !rightValue) return undefined;
  const isClose = (a: BigNumber, b: BigNumber) => {
    const difference = a.minus(b).abs();
    return difference.isZero() || difference.e < largest - digits + slackDigits;
  };
  const isEqual = isClose(leftValue.value.re, rightValue.value.re) && isClose(leftValue.value.im, rightValue.value.im);
  return isEqual ? "equal" : "different";
}

/**
 * The value of `compiled` at `scope` in `digits`-digit complex arithmetic, as the comparison computes it; undefined where
 * it is not modelled. The tests hold it against mathjs's floats: a branch taken otherwise would make right answers differ.
 */
export function complexValueInDigits(compiled: CompiledExpression, scope: Record<string, number>, digits: number): Complex | undefined {
  const node = bigNodeOf(compiled);
  const decimal = (bigMath() as unknown as { BigNumber: DecimalClass }).BigNumber;
  return node ? evaluate(node, scope, digits, decimal)?.value : undefined;
}

/** The value of `node` and the decimal exponents of the nonzero parts of every value met, or undefined. */
function evaluate(
  node: MathNode,
  scope: Record<string, number>,
  digits: number,
  decimal: DecimalClass,
): { value: Complex; smallest: number; largest: number } | undefined {
  const Decimal = decimalWithDigits(digits, decimal);
  const zero = new Decimal(0);
  const magnitudes = { smallest: Number.POSITIVE_INFINITY, largest: Number.NEGATIVE_INFINITY };
  const noise = new Decimal(10).pow(slackDigits - digits);
  const note = (value: Complex, larger?: BigNumber): Complex => {
    for (const part of [value.re, value.im]) {
      if (!part.isFinite()) throw new NotModelled();
      // A part of a sum this far below its larger term is rounding noise of a cancellation, not a magnitude.
      if (part.isZero() || (larger !== undefined && part.abs().lessThanOrEqualTo(larger.times(noise)))) continue;
      magnitudes.smallest = Math.min(magnitudes.smallest, part.e);
      magnitudes.largest = Math.max(magnitudes.largest, part.e);
    }
    return value;
  };
  const real = (value: BigNumber): Complex => ({ re: value, im: zero });
  const walk = (current: MathNode): Complex => {
    const shape = current as unknown as NodeShape;
    switch (shape.type) {
      case "ConstantNode":
        return note(real(new Decimal(shape.value as BigNumber | number | string)));
      case "ParenthesisNode":
        return walk(shape.content!);
      case "SymbolNode":
        return note(shape.name === "i" ? { re: zero, im: new Decimal(1) } : real(symbolValue(shape.name!, scope, Decimal)));
      case "OperatorNode":
      case "FunctionNode": {
        const name = typeof shape.fn === "string" ? shape.fn : (shape.fn?.name ?? "");
        const args = (shape.args ?? []).map(walk);
        if ((name === "add" || name === "subtract") && args.length === 2) {
          const [a, b] = args as [Complex, Complex];
          const sign = name === "add" ? 1 : -1;
          const sum = { re: a.re.plus(b.re.times(sign)), im: a.im.plus(b.im.times(sign)) };
          return note(sum, Decimal.max(a.re.abs(), a.im.abs(), b.re.abs(), b.im.abs()));
        }
        return note(applyComplex(name, args, Decimal));
      }
      default:
        throw new NotModelled();
    }
  };
  try {
    const value = walk(node);
    const found = magnitudes.smallest <= magnitudes.largest;
    return { value, smallest: found ? magnitudes.smallest : 0, largest: found ? magnitudes.largest : 0 };
  } catch {
    // NotModelled, a real function off its domain, or decimal.js refusing (precision limit, an exponent past its range).
    return undefined;
  }
}

function applyComplex(name: string, args: Complex[], Decimal: DecimalClass): Complex {
  const [a, b] = args as [Complex, Complex | undefined];
  const zero = new Decimal(0);
  switch (args.length === 1 ? name : `${name}/${args.length}`) {
    case "multiply/2":
      return multiply(a, b!);
    case "divide/2":
      return divide(a, b!);
    case "unaryMinus":
      return { re: a.re.neg(), im: a.im.neg() };
    case "unaryPlus":
      return a;
    case "pow/2":
      return power(a, b!, Decimal);
    case "sqrt":
      return squareRoot(a, Decimal);
    case "exp":
      return exponential(a, Decimal);
    case "log":
      return logarithm(a, Decimal);
    case "log/2":
      return divide(logarithm(a, Decimal), logarithm(b!, Decimal));
    case "log10":
      return divide(logarithm(a, Decimal), { re: new Decimal(10).ln(), im: zero });
    case "abs":
      return { re: Decimal.hypot(a.re, a.im), im: zero };
    case "sin":
      return sine(a);
    case "cos":
      return cosine(a);
    case "tan":
      return a.im.isZero() ? { re: a.re.tan(), im: zero } : divide(sine(a), cosine(a));
    case "asin":
      return arcsine(a, Decimal);
    case "acos": {
      // mathjs's acos z = π/2 − asin z: acos 2 = 1.3169…i, acos(−2) = π − 1.3169…i.
      if (a.im.isZero() && a.re.abs().lessThanOrEqualTo(1)) return { re: a.re.acos(), im: zero };
      const sineAngle = arcsine(a, Decimal);
      return { re: symbolValue("pi", {}, Decimal).div(2).minus(sineAngle.re), im: sineAngle.im.neg() };
    }
    default:
      // Any other function only of real arguments, as evaluate-in-digits.ts computes it.
      if (args.some((argument) => !argument.im.isZero())) throw new NotModelled();
      return { re: applyInDigits(name, args.map((argument) => argument.re), Decimal), im: zero };
  }
}

function multiply(a: Complex, b: Complex): Complex {
  return { re: a.re.times(b.re).minus(a.im.times(b.im)), im: a.re.times(b.im).plus(a.im.times(b.re)) };
}

function divide(a: Complex, b: Complex): Complex {
  if (b.re.isZero() && b.im.isZero()) throw new NotModelled();
  if (b.im.isZero()) return { re: a.re.div(b.re), im: a.im.div(b.re) };
  const denominator = b.re.times(b.re).plus(b.im.times(b.im));
  const numerator = multiply(a, { re: b.re, im: b.im.neg() });
  return { re: numerator.re.div(denominator), im: numerator.im.div(denominator) };
}

/** mathjs's pow: a real power of a positive real stays real; an integer power is multiplied out; else e^{w·Log z}. */
function power(base: Complex, exponent: Complex, Decimal: DecimalClass): Complex {
  const isRealExponent = exponent.im.isZero();
  if (base.im.isZero() && isRealExponent && (base.re.isPositive() || exponent.re.isInteger()) && !base.re.isZero()) {
    return { re: base.re.pow(exponent.re), im: new Decimal(0) };
  }
  if (isRealExponent && exponent.re.isInteger() && exponent.re.abs().lessThanOrEqualTo(maxIntegerPower)) {
    let result: Complex = { re: new Decimal(1), im: new Decimal(0) };
    let square = base;
    for (let remaining = exponent.re.abs().toNumber(); remaining > 0; remaining = Math.floor(remaining / 2)) {
      if (remaining % 2 === 1) result = multiply(result, square);
      if (remaining > 1) square = multiply(square, square);
    }
    return exponent.re.isNegative() ? divide({ re: new Decimal(1), im: new Decimal(0) }, result) : result;
  }
  if (base.re.isZero() && base.im.isZero()) {
    if (isRealExponent && exponent.re.isPositive()) return base;
    throw new NotModelled();
  }
  return exponential(multiply(exponent, logarithm(base, Decimal)), Decimal);
}

/** The principal square root: real for a nonnegative real, i·√|x| for a negative one. */
function squareRoot(value: Complex, Decimal: DecimalClass): Complex {
  const zero = new Decimal(0);
  if (value.im.isZero()) return value.re.isNegative() ? { re: zero, im: value.re.neg().sqrt() } : { re: value.re.sqrt(), im: zero };
  const modulus = Decimal.hypot(value.re, value.im);
  const re = modulus.plus(value.re).div(2).sqrt();
  const im = modulus.minus(value.re).div(2).sqrt();
  return { re, im: value.im.isNegative() ? im.neg() : im };
}

function exponential(value: Complex, Decimal: DecimalClass): Complex {
  const scale = value.re.exp();
  if (value.im.isZero()) return { re: scale, im: new Decimal(0) };
  return { re: scale.times(value.im.cos()), im: scale.times(value.im.sin()) };
}

/**
 * The principal logarithm, ln|z| + i·Arg z with Arg in (−π, π]: a negative real has Arg π, whatever the sign of its
 * zero imaginary part (decimal.js keeps −0, which `-x` makes; mathjs reads a real as having +0).
 */
function logarithm(value: Complex, Decimal: DecimalClass): Complex {
  if (value.re.isZero() && value.im.isZero()) throw new NotModelled();
  if (value.im.isZero()) {
    const modulus = value.re.abs().ln();
    return { re: modulus, im: value.re.isPositive() ? new Decimal(0) : symbolValue("pi", {}, Decimal) };
  }
  return { re: Decimal.hypot(value.re, value.im).ln(), im: Decimal.atan2(value.im, value.re) };
}

/** sin(x + iy) = sin x cosh y + i cos x sinh y. */
function sine(value: Complex): Complex {
  if (value.im.isZero()) return { re: value.re.sin(), im: value.im };
  return { re: value.re.sin().times(value.im.cosh()), im: value.re.cos().times(value.im.sinh()) };
}

/** cos(x + iy) = cos x cosh y − i sin x sinh y. */
function cosine(value: Complex): Complex {
  if (value.im.isZero()) return { re: value.re.cos(), im: value.im };
  return { re: value.re.cos().times(value.im.cosh()), im: value.re.sin().times(value.im.sinh()).neg() };
}

/**
 * mathjs's arcsine (complex.js's): real within [−1, 1], else −i·Log(iz + √(1 − z²)) with the principal root and
 * logarithm, so that asin 2 = π/2 − i·ln(2 + √3) and asin(−2) = −π/2 + i·ln(2 + √3).
 */
function arcsine(value: Complex, Decimal: DecimalClass): Complex {
  if (value.im.isZero() && value.re.abs().lessThanOrEqualTo(1)) return { re: value.re.asin(), im: new Decimal(0) };
  const square = multiply(value, value);
  const root = squareRoot({ re: new Decimal(1).minus(square.re), im: square.im.neg() }, Decimal);
  const logarithmValue = logarithm({ re: root.re.minus(value.im), im: root.im.plus(value.re) }, Decimal);
  return { re: logarithmValue.im, im: logarithmValue.re.neg() };
}
