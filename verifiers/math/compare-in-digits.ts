/**
 * Comparison at a point in a precision that grows with the magnitudes an expression mixes (issue #44). Floats and
 * 64 digits cannot tell `x + 10^{-41}`, `(1+10^{-45})x` or `\pi + e^{-1000}` from `x`, `x` and `\pi`: the added part
 * is smaller than their rounding. When the floats of some intermediate value leave 1e-15…1e15 (or underflow to 0, or
 * cancel), the two sides are evaluated again in 64 digits plus twice the spread of their decimal exponents, where
 * such a part is far above the rounding (docs/math-verifier.md, "Constants" and "Expressions with variables").
 */
import type { MathNode } from "mathjs";
import { bigMath, hasInexactLiteral, type CompiledExpression } from "./evaluate-expression.js";
import { forEachFloatValue } from "./float-intermediates.js";
import { evaluateInDigits, longestLiteral, type DecimalClass, type DigitsEvaluation } from "./evaluate-in-digits.js";

/**
 * The outcome at one point: `vouched` when 64 digits see every part (the caller's 64-digit check decides), `equal` or
 * `different` in the grown precision, `undecided` when that precision cannot be reached (past 320 digits, too much
 * work, a complex or undefined value).
 */
export type DigitsOutcome = { kind: "vouched" } | { kind: "equal" | "different"; digits: number } | { kind: "undecided" };

// Magnitudes floats and 64 digits vouch for (as in evaluate-expression.ts), as decimal exponents.
const vouched = { low: 1e-15, high: 1e15, lowExponent: -15, highExponent: 14 };
// A float sum this far below its larger term has lost the digits that could tell two answers apart.
const cancellation = 1e-12;
// Digits of the arithmetic when nothing grows it; literals longer than `baseDigits - 40` grow it (40 digits above them).
const baseDigits = 64;
// The digits a rounding error may climb through the operations before a difference counts (as the 1e-40 of 64 digits).
const slackDigits = 24;
// The most digits a comparison uses: decimal.js's exponentials, logarithms and inverse trigonometry take tens of
// milliseconds at 256 digits and seconds at 1,000 (an arctangent), and a spread that needs more is no real answer's.
const mostDigits = 320;
// Work allowed in one evaluation: transcendental operations, each weighted by (digits / 64)², the growth of its cost.
const workBudget = 32;
const transcendental = new Set([
  "exp", "log", "log10", "nthRoot", "sin", "cos", "tan", "sec", "csc", "cot", "asin", "acos", "atan", "sinh", "cosh", "tanh",
  "asinh", "acosh", "atanh", "gamma", "combinations", "factorial",
]);

interface ExpressionState {
  bigNode?: MathNode | null;
  literalDigits?: number;
  transcendentalCount?: number;
  /** By scope object: the sample points' scopes are made once (compare-expressions.ts), so these are met again. */
  floatReadings: WeakMap<object, FloatReading>;
}

/**
 * What floats tell of an expression's values at a point: whether they vouch for all of them, and, when they measured
 * every one (none overflowed, underflowed or cancelled, no literal was cut), the range of their decimal exponents.
 */
interface FloatReading {
  isVouched: boolean;
  exponents?: [number, number];
}

const states = new WeakMap<CompiledExpression, ExpressionState>();

/**
 * Whether floats vouch for every intermediate value of `compiled` at `scope`: each nonzero one within 1e-15…1e15, none
 * overflowing (but for `\infty` itself), no sum cancelling below 1e-12 of its terms, no product, quotient, power or
 * function underflowing to 0, and no literal longer than a float holds. Remembered per scope.
 */
export function floatsVouchFor(compiled: CompiledExpression, scope: Record<string, number>): boolean {
  return floatReading(compiled, scope).isVouched;
}

function floatReading(compiled: CompiledExpression, scope: Record<string, number>): FloatReading {
  const state = stateOf(compiled);
  const known = state.floatReadings.get(scope);
  if (known !== undefined) return known;
  const reading: FloatReading = hasInexactLiteral(compiled.expression) ? { isVouched: false } : readFloats(compiled.node, scope);
  state.floatReadings.set(scope, reading);
  return reading;
}

/** `left` against `right` at `scope` in the digits their magnitudes need (see DigitsOutcome). */
export function compareInDigits(left: CompiledExpression, right: CompiledExpression, scope: Record<string, number>): DigitsOutcome {
  const [leftNode, rightNode] = [bigNodeOf(left), bigNodeOf(right)];
  if (!leftNode || !rightNode) return { kind: "undecided" };
  const literalDigits = Math.max(literalDigitsOf(left), literalDigitsOf(right));
  const decimal = (bigMath() as unknown as { BigNumber: DecimalClass }).BigNumber;
  const base = Math.max(baseDigits, literalDigits + baseDigits - slackDigits);
  // The magnitudes as floats measured them, or (where they could not) as `base` digits do.
  const [leftFloats, rightFloats] = [floatReading(left, scope).exponents, floatReading(right, scope).exponents];
  let range: [number, number];
  if (leftFloats && rightFloats && base === baseDigits) {
    range = [Math.min(leftFloats[0], rightFloats[0]), Math.max(leftFloats[1], rightFloats[1])];
  } else {
    const [leftBase, rightBase] = [evaluateInDigits(leftNode, scope, base, decimal), evaluateInDigits(rightNode, scope, base, decimal)];
    if (!leftBase || !rightBase) return { kind: "undecided" };
    range = exponentRange(leftBase, rightBase);
  }
  const [smallest, largest] = range;
  if (base === baseDigits && smallest >= vouched.lowExponent && largest <= vouched.highExponent) return { kind: "vouched" };
  const digits = base + 2 * (largest - smallest);
  if (!isAffordable(digits, left, right)) return { kind: "undecided" };
  const [leftValue, rightValue] = [evaluateInDigits(leftNode, scope, digits, decimal), evaluateInDigits(rightNode, scope, digits, decimal)];
  if (!leftValue || !rightValue) return { kind: "undecided" };
  // Rounding in `digits` digits stays far below 10^(largest - digits + 24); a part of the answer, at least
  // 10^smallest, is far above it.
  const difference = leftValue.value.minus(rightValue.value).abs();
  const isEqual = difference.isZero() || difference.e < largest - digits + slackDigits;
  return { kind: isEqual ? "equal" : "different", digits };
}

/**
 * Whether `left` is a constant multiple of `right` (`c·right`, c ≠ 0 unknown) at every one of `scopes`, in digits grown
 * with the magnitudes of both at all of them, as compareInDigits: `a_i·b_0 = a_0·b_i` for each point i. Undefined when
 * those digits cannot be reached.
 */
export function proportionalInDigits(
  left: CompiledExpression,
  right: CompiledExpression,
  scopes: readonly Record<string, number>[],
): boolean | undefined {
  const [leftNode, rightNode] = [bigNodeOf(left), bigNodeOf(right)];
  if (!leftNode || !rightNode || scopes.length === 0) return undefined;
  const decimal = (bigMath() as unknown as { BigNumber: DecimalClass }).BigNumber;
  const base = Math.max(baseDigits, Math.max(literalDigitsOf(left), literalDigitsOf(right)) + baseDigits - slackDigits);
  let [smallest, largest] = [0, 0];
  for (const scope of scopes) {
    const [leftBase, rightBase] = [evaluateInDigits(leftNode, scope, base, decimal), evaluateInDigits(rightNode, scope, base, decimal)];
    if (!leftBase || !rightBase) return undefined;
    const [low, high] = exponentRange(leftBase, rightBase);
    [smallest, largest] = [Math.min(smallest, low), Math.max(largest, high)];
  }
  const digits = base + 2 * (largest - smallest);
  if (!isAffordable(digits, left, right)) return undefined;
  const values = scopes.map((scope) => [evaluateInDigits(leftNode, scope, digits, decimal), evaluateInDigits(rightNode, scope, digits, decimal)] as const);
  if (values.some(([a, b]) => !a || !b)) return undefined;
  const [[first, firstRight]] = values as [readonly [DigitsEvaluation, DigitsEvaluation]];
  // Products of two values: their rounding stays below 10^(2·largest − digits + 24).
  const tolerance = 2 * largest - digits + slackDigits;
  return values.every(([a, b]) => {
    const crossDifference = a!.value.times(firstRight.value).minus(first.value.times(b!.value)).abs();
    return crossDifference.isZero() || crossDifference.e < tolerance;
  });
}

function exponentRange(left: DigitsEvaluation, right: DigitsEvaluation): [number, number] {
  const smallest = Math.min(left.smallestExponent ?? 0, right.smallestExponent ?? 0);
  const largest = Math.max(left.largestExponent ?? 0, right.largestExponent ?? 0);
  return [smallest, largest];
}

function stateOf(compiled: CompiledExpression): ExpressionState {
  let state = states.get(compiled);
  if (!state) {
    state = { floatReadings: new WeakMap() };
    states.set(compiled, state);
  }
  return state;
}

/** The expression parsed by the BigNumber instance, so that its literals keep every digit (null: it does not parse). */
export function bigNodeOf(compiled: CompiledExpression): MathNode | undefined {
  const state = stateOf(compiled);
  if (state.bigNode === undefined) {
    try {
      state.bigNode = bigMath().parse(compiled.expression);
    } catch {
      state.bigNode = null;
    }
  }
  return state.bigNode ?? undefined;
}

/** The most significant digits of a literal in `compiled`. */
export function literalDigitsOf(compiled: CompiledExpression): number {
  const state = stateOf(compiled);
  const node = bigNodeOf(compiled);
  state.literalDigits ??= node ? longestLiteral(node) : 0;
  return state.literalDigits;
}

/** Whether evaluating both sides in `digits` digits stays within 320 digits and the work budget. */
export function isAffordable(digits: number, left: CompiledExpression, right: CompiledExpression): boolean {
  const operations = transcendentalCountOf(left) + transcendentalCountOf(right);
  return digits <= mostDigits && operations * (digits / baseDigits) ** 2 <= workBudget;
}

/** Transcendental operations in `compiled`, a power counting as one unless its exponent is an integer literal. */
function transcendentalCountOf(compiled: CompiledExpression): number {
  const state = stateOf(compiled);
  if (state.transcendentalCount === undefined) {
    let count = 0;
    compiled.node.traverse((child) => {
      const shape = child as unknown as { fn?: string | { name?: string }; args?: MathNode[] };
      const name = typeof shape.fn === "string" ? shape.fn : shape.fn?.name;
      if (child.type !== "FunctionNode" && child.type !== "OperatorNode") return;
      if (name === "pow") {
        if (!isIntegerLiteral(shape.args?.[1])) count += 1;
      } else if (name !== undefined && transcendental.has(name)) {
        count += 1;
      }
    });
    state.transcendentalCount = count;
  }
  return state.transcendentalCount;
}

/** `3`, `(3)`, `-3`, `(-(3))`: a power to it is repeated multiplication, cheap in any digits. */
function isIntegerLiteral(node: MathNode | undefined): boolean {
  const shape = node as unknown as { type?: string; content?: MathNode; fn?: unknown; args?: MathNode[]; value?: unknown } | undefined;
  if (shape?.type === "ParenthesisNode") return isIntegerLiteral(shape.content);
  if (shape?.type === "OperatorNode" && (shape.fn === "unaryMinus" || shape.fn === "unaryPlus")) return isIntegerLiteral(shape.args?.[0]);
  return shape?.type === "ConstantNode" && typeof shape.value === "number" && Number.isInteger(shape.value);
}

/** floatReading's walk over the values of `node`; a node the walk cannot evaluate leaves it to the usual checks. */
function readFloats(node: MathNode, scope: Record<string, number>): FloatReading {
  let isVouched = true;
  let isMeasured = true;
  let [smallest, largest] = [Number.POSITIVE_INFINITY, 0];
  const walked = forEachFloatValue(node, scope, ({ name, size, operands, isWrittenInfinity }) => {
    if (Number.isNaN(size)) return;
    if (!Number.isFinite(size)) {
      if (!isWrittenInfinity) [isVouched, isMeasured] = [false, false];
      return;
    }
    if (size !== 0) {
      [smallest, largest] = [Math.min(smallest, size), Math.max(largest, size)];
      if (size < vouched.low || size > vouched.high) isVouched = false;
    }
    if (name === "add" || name === "subtract") {
      const larger = Math.max(...operands);
      if (larger > 0 && Number.isFinite(larger) && size <= cancellation * larger) [isVouched, isMeasured] = [false, false];
    } else if (size === 0 && operands.length > 0 && operands.every((operand) => operand !== 0)) {
      [isVouched, isMeasured] = [false, false];
    }
  });
  if (!walked) return { isVouched: true };
  const exponents: [number, number] = largest > 0 ? [Math.floor(Math.log10(smallest)), Math.floor(Math.log10(largest))] : [0, 0];
  return isMeasured ? { isVouched, exponents } : { isVouched };
}
