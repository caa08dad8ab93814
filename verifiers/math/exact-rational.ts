/** Exact rational evaluation (BigInt numerator/denominator) of integer/decimal arithmetic: +, -, *, /, integer powers, factorials. */
import type { MathNode } from "mathjs";

/** An exact rational number; the denominator is positive and the fraction is reduced. */
export interface Rational {
  numerator: bigint;
  denominator: bigint;
}

// Bounds that keep exact arithmetic fast: results past ~200k digits are left to the caller's other paths.
const maxDigits = 200_000;
const maxFactorial = 5000n;

/** The exact value of `node`, or undefined when it has anything but rational arithmetic (sqrt, π, variables...). */
export function evaluateRational(node: MathNode): Rational | undefined {
  try {
    return evaluate(node);
  } catch (error) {
    if (error instanceof NotRational) return undefined;
    throw error;
  }
}

/** Whether two rationals are equal. */
export function rationalsEqual(left: Rational, right: Rational): boolean {
  return left.numerator === right.numerator && left.denominator === right.denominator;
}

class NotRational extends Error {}

interface NodeShape {
  type: string;
  value?: unknown;
  op?: string;
  fn?: string | { name?: string };
  args?: MathNode[];
  content?: MathNode;
}

function evaluate(node: MathNode): Rational {
  const shape = node as unknown as NodeShape;
  switch (shape.type) {
    case "ConstantNode":
      return fromLiteral(String(shape.value));
    case "ParenthesisNode":
      return evaluate(shape.content!);
    case "OperatorNode":
      return evaluateOperator(shape);
    default:
      throw new NotRational();
  }
}

function evaluateOperator(shape: NodeShape): Rational {
  const args = (shape.args ?? []).map(evaluate);
  const [a, b] = args as [Rational, Rational];
  switch (shape.fn) {
    case "unaryMinus":
      return negateRational(a);
    case "unaryPlus":
      return a;
    case "add":
      return addRationals(a, b);
    case "subtract":
      return addRationals(a, negateRational(b));
    case "multiply":
      return multiplyRationals(a, b);
    case "divide":
      if (b.numerator === 0n) throw new NotRational();
      return multiplyRationals(a, invertRational(b));
    case "pow":
      return power(a, b);
    case "factorial":
      return factorial(a);
    default:
      throw new NotRational();
  }
}

/** `numerator / denominator`, reduced, with a positive denominator (which must not be 0). */
export function rational(numerator: bigint, denominator = 1n): Rational {
  if (denominator < 0n) return rational(-numerator, -denominator);
  const divisor = gcd(numerator < 0n ? -numerator : numerator, denominator);
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}

export function addRationals(a: Rational, b: Rational): Rational {
  if (a.denominator === b.denominator) return rational(a.numerator + b.numerator, a.denominator);
  return rational(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);
}

export function multiplyRationals(a: Rational, b: Rational): Rational {
  return rational(a.numerator * b.numerator, a.denominator * b.denominator);
}

/** Negative, 0 or positive as a is below, equal to or above b. */
export function compareRationals(a: Rational, b: Rational): number {
  const difference = a.numerator * b.denominator - b.numerator * a.denominator;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

export function negateRational(a: Rational): Rational {
  return { numerator: -a.numerator, denominator: a.denominator };
}

/** 1/a, for a nonzero `a`. */
export function invertRational(a: Rational): Rational {
  return rational(a.denominator, a.numerator);
}

/** The exact value of a decimal literal (`12`, `0.25`, `1.5e-41`), or undefined when it is none or past 10^±400. */
export function rationalFromLiteral(text: string): Rational | undefined {
  try {
    return fromLiteral(text);
  } catch {
    return undefined;
  }
}

function power(base: Rational, exponent: Rational): Rational {
  if (exponent.denominator !== 1n) throw new NotRational();
  const magnitude = exponent.numerator < 0n ? -exponent.numerator : exponent.numerator;
  const baseDigits = Math.max(digits(base.numerator), digits(base.denominator));
  if (baseDigits * Number(magnitude) > maxDigits && !isUnit(base)) throw new NotRational();
  const numerator = base.numerator ** magnitude;
  const denominator = base.denominator ** magnitude;
  if (exponent.numerator >= 0n) return { numerator, denominator };
  if (numerator === 0n) throw new NotRational();
  return rational(denominator, numerator);
}

function factorial(value: Rational): Rational {
  if (value.denominator !== 1n || value.numerator < 0n || value.numerator > maxFactorial) throw new NotRational();
  let result = 1n;
  for (let factor = 2n; factor <= value.numerator; factor += 1n) result *= factor;
  return { numerator: result, denominator: 1n };
}

function fromLiteral(text: string): Rational {
  const match = /^(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i.exec(text);
  if (!match || (match[1] === "" && (match[2] ?? "") === "")) throw new NotRational();
  const fraction = match[2] ?? "";
  const exponent = Number(match[3] ?? 0) - fraction.length;
  if (Math.abs(exponent) > 400) throw new NotRational();
  const integer = BigInt((match[1] ?? "") + fraction || "0");
  return exponent >= 0 ? { numerator: integer * 10n ** BigInt(exponent), denominator: 1n } : rational(integer, 10n ** BigInt(-exponent));
}

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
}

function digits(value: bigint): number {
  return (value < 0n ? -value : value).toString().length;
}

function isUnit(value: Rational): boolean {
  return value.denominator === 1n && (value.numerator === 1n || value.numerator === -1n || value.numerator === 0n);
}
