/**
 * Evaluates a mathjs expression tree in decimal arithmetic of any precision (mathjs's own decimal.js class, cloned at
 * that precision), and reports the decimal exponents of every intermediate value on the way: how far apart the
 * magnitudes an answer mixes are decides the precision that can tell it from another (compare-in-digits.ts).
 * Real values only: where the value leaves the reals, or an operation is not modelled here, there is no result.
 */
import type { BigNumber, MathNode } from "mathjs";

/** The value of an expression in `digits` digits, with the magnitudes met on the way. */
export interface DigitsEvaluation {
  value: BigNumber;
  /** The smallest and largest decimal exponent of the nonzero intermediate values (undefined when all are zero). */
  smallestExponent?: number;
  largestExponent?: number;
}

/** decimal.js's constructor, as mathjs exposes it (`math.BigNumber`). */
export interface DecimalClass {
  new (value: string | number | BigNumber): BigNumber;
  clone(config: { precision: number }): DecimalClass;
  acos(value: number): BigNumber;
  exp(value: number): BigNumber;
  max(...values: BigNumber[]): BigNumber;
  hypot(...values: BigNumber[]): BigNumber;
  atan2(y: BigNumber, x: BigNumber): BigNumber;
}

// decimal.js computes π and ln 10 to 1,025 digits and refuses trigonometry and logarithms past them.
export const maxDigits = 1000;
// Factorials, and the integer arguments of gamma and binomials, up to this are multiplied out (as exact-rational.ts).
const maxFactorial = 5000;
// A sum this many digits below its larger term is rounding noise of the cancellation, not a magnitude of the answer.
const noiseDigits = 24;

class NotReal extends Error {}

/** Decimal classes by precision: cloning is cheap, and a comparison asks for the same few precisions again. */
const classes = new Map<number, DecimalClass>();

/**
 * `node` (parsed by mathjs's BigNumber instance, so that long literals keep their digits) evaluated in `digits`
 * digits with `scope`'s variables bound to the exact decimal values of their floats; undefined when it is not real or
 * holds what is not modelled (complex values, infinities, matrices, gamma of a non-integer).
 */
export function evaluateInDigits(
  node: MathNode,
  scope: Record<string, number>,
  digits: number,
  decimal: DecimalClass,
): DigitsEvaluation | undefined {
  if (digits > maxDigits) return undefined;
  const Decimal = decimalWithDigits(digits, decimal);
  const magnitudes = { smallest: Number.POSITIVE_INFINITY, largest: Number.NEGATIVE_INFINITY };
  // Made once: a power of ten per sum took most of the evaluation of an answer of hundreds of sums.
  const noiseScale = new Decimal(10).pow(noiseDigits - digits);
  const noted = (value: BigNumber, isNoise = false): BigNumber => {
    if (!value.isFinite()) throw new NotReal();
    if (!value.isZero() && !isNoise) {
      magnitudes.smallest = Math.min(magnitudes.smallest, value.e);
      magnitudes.largest = Math.max(magnitudes.largest, value.e);
    }
    return value;
  };
  const walk = (current: MathNode): BigNumber => {
    const shape = current as unknown as NodeShape;
    switch (shape.type) {
      case "ConstantNode":
        return noted(new Decimal(shape.value as BigNumber | number | string));
      case "ParenthesisNode":
        return walk(shape.content!);
      case "SymbolNode":
        return noted(symbolValue(shape.name!, scope, Decimal!));
      case "OperatorNode":
      case "FunctionNode": {
        const name = typeof shape.fn === "string" ? shape.fn : shape.fn?.name;
        const args = (shape.args ?? []).map(walk);
        if ((name === "add" || name === "subtract") && args.length === 2) {
          const [a, b] = args as [BigNumber, BigNumber];
          const sum = name === "add" ? a.plus(b) : a.minus(b);
          const larger = a.abs().greaterThan(b.abs()) ? a.abs() : b.abs();
          return noted(sum, !sum.isZero() && sum.abs().lessThanOrEqualTo(larger.times(noiseScale)));
        }
        // `e^y` is exp(y): decimal.js's power of a non-integer takes a logarithm too.
        if (name === "pow" && isEuler(shape.args?.[0])) return noted(args[1]!.exp());
        return noted(applyInDigits(name ?? "", args, Decimal));
      }
      default:
        throw new NotReal();
    }
  };
  try {
    const value = walk(node);
    if (value.isNaN()) return undefined;
    const found = magnitudes.smallest <= magnitudes.largest;
    return found ? { value, smallestExponent: magnitudes.smallest, largestExponent: magnitudes.largest } : { value };
  } catch {
    // NotReal, or decimal.js refusing (precision limit, an exponent past its range).
    return undefined;
  }
}

/** `decimal` cloned at `digits` digits of precision, once per precision. */
export function decimalWithDigits(digits: number, decimal: DecimalClass): DecimalClass {
  let Decimal = classes.get(digits);
  if (!Decimal) {
    Decimal = decimal.clone({ precision: digits });
    classes.set(digits, Decimal);
  }
  return Decimal;
}

/** The most significant digits of a literal in `node` (parsed by the BigNumber instance, so long literals keep theirs). */
export function longestLiteral(node: MathNode): number {
  let digits = 0;
  node.traverse((child) => {
    const value = (child as unknown as NodeShape).value;
    if (child.type === "ConstantNode" && value !== null && typeof value === "object" && "sd" in value) {
      digits = Math.max(digits, (value as BigNumber).sd());
    }
  });
  return digits;
}

interface NodeShape {
  type: string;
  name?: string;
  value?: unknown;
  fn?: string | { name?: string };
  args?: MathNode[];
  content?: MathNode;
}

function isEuler(node: MathNode | undefined): boolean {
  const shape = node as unknown as NodeShape | undefined;
  if (shape?.type === "ParenthesisNode") return isEuler(shape.content);
  return shape?.type === "SymbolNode" && shape.name === "e";
}

// π and e by precision, computed once.
const constants = new Map<DecimalClass, { pi: BigNumber; e: BigNumber }>();

/** A variable of `scope` (the exact decimal of its float), π or e in `Decimal`'s digits; throws for any other name. */
export function symbolValue(name: string, scope: Record<string, number>, Decimal: DecimalClass): BigNumber {
  const bound = scope[name];
  if (bound !== undefined) return new Decimal(bound);
  if (name === "pi" || name === "e") {
    let known = constants.get(Decimal);
    if (!known) {
      known = { pi: Decimal.acos(-1), e: Decimal.exp(1) };
      constants.set(Decimal, known);
    }
    return known[name];
  }
  // `i`, `Infinity` and unbound names have no real value here.
  throw new NotReal();
}

/**
 * mathjs's operation or function `name` of real `args` in `Decimal`'s digits; throws when the value is not real or the
 * operation is not modelled.
 */
export function applyInDigits(name: string, args: BigNumber[], Decimal: DecimalClass): BigNumber {
  const [a, b] = args as [BigNumber, BigNumber | undefined];
  const one = new Decimal(1);
  const real = (value: BigNumber) => {
    if (value.isNaN()) throw new NotReal();
    return value;
  };
  switch (args.length === 1 ? name : `${name}/${args.length}`) {
    case "multiply/2":
      return a.times(b!);
    case "divide/2":
      if (b!.isZero()) throw new NotReal();
      return a.div(b!);
    case "pow/2":
      return power(a, b!);
    case "unaryMinus":
      return a.neg();
    case "unaryPlus":
      return a;
    case "factorial":
      return factorial(a, Decimal);
    case "gamma":
      return factorial(a.minus(1), Decimal);
    case "combinations/2":
      return combinations(a, b!, Decimal);
    case "sqrt":
      return real(a.sqrt());
    case "nthRoot/2":
      return nthRoot(a, b!);
    case "abs":
      return a.abs();
    case "floor":
      return a.floor();
    case "ceil":
      return a.ceil();
    case "exp":
      return a.exp();
    case "log":
      if (!a.isPositive() || a.isZero()) throw new NotReal();
      return a.ln();
    case "log/2":
      if (!a.isPositive() || a.isZero() || !b!.isPositive() || b!.isZero() || b!.eq(1)) throw new NotReal();
      return a.ln().div(b!.ln());
    case "log10":
      if (!a.isPositive() || a.isZero()) throw new NotReal();
      return a.ln().div(new Decimal(10).ln());
    case "sin":
      return a.sin();
    case "cos":
      return a.cos();
    case "tan":
      return a.tan();
    case "sec":
      return one.div(a.cos());
    case "csc":
      return one.div(a.sin());
    case "cot":
      return a.cos().div(a.sin());
    case "asin":
      return real(a.asin());
    case "acos":
      return real(a.acos());
    case "atan":
      return a.atan();
    case "sinh":
      return a.sinh();
    case "cosh":
      return a.cosh();
    case "tanh":
      return a.tanh();
    case "asinh":
      return a.asinh();
    case "acosh":
      return real(a.acosh());
    case "atanh":
      return real(a.atanh());
    default:
      throw new NotReal();
  }
}

/** `base^exponent` as mathjs computes it for reals: a negative base only to an integer power. */
function power(base: BigNumber, exponent: BigNumber): BigNumber {
  if (base.isNeg() && !base.isZero() && !exponent.isInteger()) throw new NotReal();
  if (base.isZero() && exponent.isNeg()) throw new NotReal();
  return base.pow(exponent);
}

/** mathjs's `nthRoot`: an integer root; of a negative radicand only an odd one, negative. */
function nthRoot(radicand: BigNumber, root: BigNumber): BigNumber {
  if (!root.isInteger() || root.isZero()) throw new NotReal();
  if (!radicand.isNeg() || radicand.isZero()) return radicand.pow(root.pow(-1));
  if (root.mod(2).isZero()) throw new NotReal();
  return radicand.neg().pow(root.pow(-1)).neg();
}

function factorial(value: BigNumber, Decimal: DecimalClass): BigNumber {
  if (!value.isInteger() || value.isNeg() || value.greaterThan(maxFactorial)) throw new NotReal();
  let result = new Decimal(1);
  for (let factor = 2; factor <= value.toNumber(); factor += 1) result = result.times(factor);
  return result;
}

/** `n choose k` for integers, multiplied out (k at most 5000). */
function combinations(n: BigNumber, k: BigNumber, Decimal: DecimalClass): BigNumber {
  if (!n.isInteger() || !k.isInteger() || k.isNeg() || k.greaterThan(n) || k.greaterThan(maxFactorial)) throw new NotReal();
  let result = new Decimal(1);
  for (let index = 1; index <= k.toNumber(); index += 1) result = result.times(n.minus(k).plus(index)).div(index);
  return result;
}
