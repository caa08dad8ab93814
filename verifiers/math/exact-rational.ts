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
  const divisor = greatestCommonDivisor(numerator < 0n ? -numerator : numerator, denominator);
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

export function greatestCommonDivisor(a: bigint, b: bigint): bigint {
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

// Powers of rationals past this many digits are not computed (rationalPower).
const maxPowerDigits = 4000;
// Rationals up to this are written as powers of the smallest base (smallestPower).
const perfectPowerLimit = 10n ** 40n;

/** `value^exponent` for an integer exponent, or undefined past 4,000 digits or for 0 to a negative power. */
export function rationalPower(value: Rational, exponent: bigint): Rational | undefined {
  const magnitude = exponent < 0n ? -exponent : exponent;
  if (magnitude > 1n && Math.max(rationalDigits(value), 1) * Number(magnitude) > maxPowerDigits) return undefined;
  const raised = { numerator: value.numerator ** magnitude, denominator: value.denominator ** magnitude };
  if (exponent >= 0n) return raised;
  return raised.numerator === 0n ? undefined : invertRational(raised);
}

/** `value = root^multiple` with `multiple` as large as it goes (8 is 2^3, 4/9 is (2/3)^2), for a positive value up to 10^40. */
export function smallestPower(value: Rational): [Rational, bigint] {
  const { numerator, denominator } = value;
  if (numerator > perfectPowerLimit || denominator > perfectPowerLimit) return [value, 1n];
  const bits = Math.max(numerator.toString(2).length, denominator.toString(2).length);
  for (let multiple = bits; multiple >= 2; multiple -= 1) {
    const top = integerRoot(numerator, multiple);
    const bottom = integerRoot(denominator, multiple);
    if (top !== undefined && bottom !== undefined) return [rational(top, bottom), BigInt(multiple)];
  }
  return [value, 1n];
}

/** The integer whose `degree`-th power is `value` (positive), or undefined: Newton's method from above the root. */
function integerRoot(value: bigint, degree: number): bigint | undefined {
  if (value === 1n) return 1n;
  const power = BigInt(degree);
  let root = BigInt(Math.ceil(Number(value) ** (1 / degree) * (1 + 1e-9))) + 1n;
  for (;;) {
    const next = ((power - 1n) * root + value / root ** (power - 1n)) / power;
    if (next >= root) break;
    root = next;
  }
  return root ** power === value ? root : undefined;
}

/** The largest integer not above `value`. */
export function floorRational(value: Rational): bigint {
  const quotient = value.numerator / value.denominator;
  return value.numerator < 0n && quotient * value.denominator !== value.numerator ? quotient - 1n : quotient;
}

export function absoluteRational(value: Rational): Rational {
  return value.numerator < 0n ? negateRational(value) : value;
}

/** The digits of the longer of numerator and denominator. */
export function rationalDigits(value: Rational): number {
  return Math.max(absoluteRational(value).numerator.toString().length, value.denominator.toString().length);
}
