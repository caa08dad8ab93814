/** Compiles mathjs expressions (cached) and evaluates them in float and in 64-digit BigNumber arithmetic. */
import type { BigNumber, EvalFunction, MathJsInstance, MathNode } from "mathjs";
import { evaluateRational, type Rational } from "./exact-rational.js";
import { loadMathjsBundle } from "./load-mathjs-bundle.js";

// Loaded on first use, so that importing the verifier (the CLI, a cookbook) does not pay for it.
let floatMathInstance: MathJsInstance | undefined;
// A second, independent instance configured for 64-digit BigNumbers, loaded on first use (tiny, huge or long values).
let bigMathInstance: MathJsInstance | undefined;
// Names that are values, not free variables.
const constants = new Set(["e", "i", "pi", "Infinity"]);
// Cached compilations; cleared wholesale when full (ground truths repeat across rows, responses rarely do).
const cacheLimit = 4096;
const cache = new Map<string, CompiledExpression | null>();

// mathjs's floor, ceil and round take a value within relTol (1e-12 by default) of an integer for that integer, to hide
// float rounding; that made ⌊3.9999999999999⌋ 4. Float rounding is at most a few 1e-16 of a value, and 64 digits' far
// below 1e-40: a literal past that distance from an integer is not one (issue #44).
const floatTolerance = { relTol: 1e-15, absTol: 1e-15 };
const bigTolerance = { relTol: 1e-40, absTol: 1e-60 };

/** The float mathjs instance, loaded on first use. */
export function floatMath(): MathJsInstance {
  if (!floatMathInstance) {
    floatMathInstance = loadMathjsBundle();
    floatMathInstance.config(floatTolerance);
  }
  return floatMathInstance;
}

/** The 64-digit BigNumber mathjs instance, loaded on first use. */
export function bigMath(): MathJsInstance {
  if (!bigMathInstance) {
    bigMathInstance = loadMathjsBundle();
    bigMathInstance.config({ number: "BigNumber", precision: 64, ...bigTolerance });
  }
  return bigMathInstance;
}

/**
 * Whether a number written in `expression` is not the float that mathjs reads for it: one of more than 15 significant
 * digits (`0.10000000000000001`, `1.234567890123456`), or one in exponent notation, which can be past the floats'
 * range (`1e-400` reads as 0). Its exact value is read from the BigNumber parse. Zeros at either end are no digits of
 * it (`1000…0` and `0.000…01` are exact as floats read them back).
 */
export function hasInexactLiteral(expression: string): boolean {
  if (/\d[eE][-+]?\d/.test(expression)) return true;
  for (const [literal] of expression.matchAll(/\d*\.?\d+|\d+\./g)) {
    if (literal.replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length > 15) return true;
  }
  return false;
}

/** A parsed expression with its free variables. */
export interface CompiledExpression {
  node: MathNode;
  evaluate: EvalFunction;
  symbols: string[];
  /** The expression as text (mathjs syntax, variables without the `(x)` wrapping). */
  source: string;
  /** The expression as given, for BigNumber parsing (float parsing rounds long literals). */
  expression: string;
  /** Exact value when the expression is rational arithmetic; computed on first use (null: not rational). */
  rational?: Rational | null;
  /** `expression` compiled in 64-digit BigNumber arithmetic; compiled on first use (null: BigNumber parsing failed). */
  bigEvaluate?: EvalFunction | null;
  /**
   * 64-digit values by the scope they were computed in (`bigScopeKey`): a ground truth is evaluated at each sample
   * point once for all the responses graded against it. Cleared when full (`bigValuesLimit`).
   */
  bigValues?: Map<string, unknown>;
  /** `hasValueBeyondPrecision`'s answer, computed on first use. */
  isBeyondPrecision?: boolean;
}

// A 64-digit evaluation that threw, as stored in `bigValues`.
const evaluationFailed = Symbol("evaluation failed");
// The scope holds the other side's variables too, so a ground truth met by responses with ever new variable names
// would gather 8 values per name set without end; 64 holds the 8 sample points for several name sets.
const bigValuesLimit = 64;

/** A complex value; real values have `imaginary` 0. */
export interface ComplexValue {
  real: number;
  imaginary: number;
}

/** The compiled form of `expression`, or undefined when mathjs cannot parse it. */
export function compileExpression(expression: string): CompiledExpression | undefined {
  const cached = cache.get(expression);
  if (cached !== undefined) return cached ?? undefined;
  let compiled: CompiledExpression | null = null;
  try {
    const node = floatMath().parse(expression);
    const symbols = new Set<string>();
    node.traverse((child, path) => {
      if (child.type === "SymbolNode" && path !== "fn") {
        const name = (child as unknown as { name: string }).name;
        if (!constants.has(name)) symbols.add(name);
      }
    });
    compiled = { node, evaluate: node.compile(), symbols: [...symbols].sort(), source: node.toString(), expression };
  } catch {
    compiled = null;
  }
  if (cache.size >= cacheLimit) cache.clear();
  cache.set(expression, compiled);
  return compiled ?? undefined;
}

/** The exact rational value of a constant expression, or undefined (irrational, symbolic, too large). */
export function exactRational(compiled: CompiledExpression): Rational | undefined {
  if (compiled.rational === undefined) {
    try {
      const node = hasInexactLiteral(compiled.expression) ? bigMath().parse(compiled.expression) : compiled.node;
      compiled.rational = compiled.symbols.length === 0 ? (evaluateRational(node) ?? null) : null;
    } catch {
      compiled.rational = null;
    }
  }
  return compiled.rational ?? undefined;
}

/** The real matrix that a constant mathjs expression (`[[1,2],[3,4]] + [[5,6],[7,8]]`) evaluates to, or undefined. */
export function evaluateMatrix(expression: string): number[][] | undefined {
  const compiled = compileExpression(expression);
  if (!compiled || compiled.symbols.length > 0) return undefined;
  try {
    const value: unknown = compiled.evaluate.evaluate({});
    const rows = floatMath().isMatrix(value) ? (value.toArray() as unknown[]) : undefined;
    if (!rows?.every((row) => Array.isArray(row) && row.every((cell) => typeof cell === "number" && Number.isFinite(cell)))) {
      return undefined;
    }
    return rows as number[][];
  } catch {
    return undefined;
  }
}

/** Float value of `compiled` with `scope` bound, or undefined when it is not a number (matrix, error, NaN). */
export function evaluateComplex(compiled: CompiledExpression, scope: Record<string, number> = {}): ComplexValue | undefined {
  try {
    const value: unknown = compiled.evaluate.evaluate({ ...scope });
    return toComplex(value);
  } catch {
    return undefined;
  }
}

function toComplex(value: unknown): ComplexValue | undefined {
  if (typeof value === "number") return Number.isNaN(value) ? undefined : { real: value, imaginary: 0 };
  if (value !== null && typeof value === "object" && "re" in value && "im" in value) {
    const { re, im } = value as { re: number; im: number };
    if (Number.isNaN(re) || Number.isNaN(im)) return undefined;
    return { real: re, imaginary: im };
  }
  return undefined;
}

/**
 * Whether two expressions are equal in 64-digit arithmetic (relative difference below 1e-40), used where floats
 * cannot tell (tiny or huge irrational values, or a sample point where `x^2+10^{-15}` and `x^2` agree as floats), with
 * `scope`'s variables bound to the exact decimal values of its floats; false when the values are too large to tell
 * apart. Undefined when it cannot evaluate (a complex value, a factorial too large).
 */
export function bigNumbersEqual(left: CompiledExpression, right: CompiledExpression, scope: Record<string, number> = {}): boolean | undefined {
  if (!isSafeForBigNumbers(left.node) || !isSafeForBigNumbers(right.node)) return undefined;
  try {
    const big = bigMath();
    const a = bigValue(left, scope);
    if (a === evaluationFailed) return undefined;
    const b = bigValue(right, scope);
    if (!big.isBigNumber(a) || !big.isBigNumber(b)) return undefined;
    // NaN: off the real domain in BigNumber arithmetic (acos(2)), where floats went complex; nothing to tell.
    if (a.isNaN() || b.isNaN()) return undefined;
    if (!a.isFinite() || !b.isFinite()) return a.isFinite() === b.isFinite() && a.eq(b);
    if (a.isZero() || b.isZero()) return a.isZero() && b.isZero();
    const difference = a.minus(b).abs();
    const scale = a.abs().greaterThan(b.abs()) ? a.abs() : b.abs();
    if (difference.greaterThan(scale.times("1e-40"))) return false;
    // Past 1e40 a 64-digit difference cannot see an added 1 (10^{10^{10}} vs 10^{10^{10}}+1): not shown equal.
    return scale.lessThan("1e40");
  } catch {
    return undefined;
  }
}

/**
 * |value of `compiled` − `literal`| in 64-digit arithmetic, for a decimal literal of at most 56 significant digits
 * (64 digits then resolve its last place); undefined when it cannot be evaluated or the literal is longer.
 */
export function bigDifference(compiled: CompiledExpression, literal: string): BigNumber | undefined {
  if (literal.replace(/[-+.]/g, "").replace(/^0+/, "").length > 56 || !isSafeForBigNumbers(compiled.node)) return undefined;
  try {
    const big = bigMath();
    const value = bigValue(compiled, {});
    if (!big.isBigNumber(value) || !value.isFinite()) return undefined;
    return value.minus(big.bignumber(literal)).abs();
  } catch {
    return undefined;
  }
}

/**
 * `compiled`'s 64-digit value with `scope`'s variables bound to their floats' decimal values (or `evaluationFailed`),
 * computed once per scope. The key is the whole scope, not only the expression's own symbols: a variable of the other
 * side can shadow a function of this one (`gamma(x)` against `gamma x`).
 */
function bigValue(compiled: CompiledExpression, scope: Record<string, number>): unknown {
  compiled.bigValues ??= new Map();
  const key = bigScopeKey(scope);
  if (compiled.bigValues.has(key)) return compiled.bigValues.get(key);
  if (compiled.bigValues.size >= bigValuesLimit) compiled.bigValues.clear();
  let value: unknown;
  try {
    const big = bigMath();
    value = bigEvaluator(compiled).evaluate(Object.fromEntries(Object.entries(scope).map(([name, number]) => [name, big.bignumber(number)])));
  } catch {
    value = evaluationFailed;
  }
  compiled.bigValues.set(key, value);
  return value;
}

// `String` of a float is its shortest round-trip form, so distinct floats give distinct keys (but for -0, spelled out).
function bigScopeKey(scope: Record<string, number>): string {
  return Object.entries(scope)
    .map(([name, value]) => `${name}=${Object.is(value, -0) ? "-0" : value}`)
    .join(",");
}

/**
 * The BigNumber compilation of `compiled.expression`, made once: the same as `big.evaluate(expression, scope)`, which
 * parses and compiles the text on every call (8 sample points, two sides: most of a symbolic verdict's time). Throws
 * as that parse would, every time.
 */
function bigEvaluator(compiled: CompiledExpression): EvalFunction {
  if (compiled.bigEvaluate === undefined) {
    try {
      compiled.bigEvaluate = bigMath().parse(compiled.expression).compile();
    } catch (error) {
      compiled.bigEvaluate = null;
      throw error;
    }
  }
  if (compiled.bigEvaluate === null) throw new Error(`BigNumber arithmetic cannot parse ${compiled.expression}`);
  return compiled.bigEvaluate;
}

// Magnitudes that floats and 64-digit arithmetic both vouch for: past them a sum can absorb a difference unseen
// (1 + 2^{-1000} is 1 in both; 2^{2^{2^{30}}} overflows both).
const vouchedMagnitude = { low: 1e-15, high: 1e15 };

/**
 * Whether some constant part of `compiled` (an intermediate value, not only the result) is nonzero and outside
 * 1e-15…1e15, or overflows: then neither float nor 64-digit agreement shows that two values are equal.
 */
export function hasValueBeyondPrecision(compiled: CompiledExpression): boolean {
  compiled.isBeyondPrecision ??= findValueBeyondPrecision(compiled);
  return compiled.isBeyondPrecision;
}

function findValueBeyondPrecision(compiled: CompiledExpression): boolean {
  let isBeyond = false;
  compiled.node.traverse((child) => {
    if (isBeyond || child.type === "SymbolNode" || child.type === "ConstantNode") return;
    const source = child.toString();
    if (/Infinity/.test(source)) return;
    const part = compileExpression(source);
    const value = part && evaluateComplex(part);
    if (!value) return;
    const size = Math.hypot(value.real, value.imaginary);
    if (!Number.isFinite(size) || (size !== 0 && (size < vouchedMagnitude.low || size > vouchedMagnitude.high))) isBeyond = true;
  });
  return isBeyond;
}

/**
 * Whether `node` holds no factorial of a literal past 5000: those take seconds in BigNumber arithmetic and hang
 * nerdamer, which computes them exactly (`99999999999999999999!`); the worker time limit is the backstop.
 */
export function isSafeForBigNumbers(node: MathNode): boolean {
  let isSafe = safeForBigNumbers.get(node);
  if (isSafe === undefined) {
    isSafe = hasNoLargeFactorial(node);
    safeForBigNumbers.set(node, isSafe);
  }
  return isSafe;
}

// isSafeForBigNumbers's answers by node: compiled expressions are cached, so a ground truth's node is met again and again.
const safeForBigNumbers = new WeakMap<MathNode, boolean>();

function hasNoLargeFactorial(node: MathNode): boolean {
  let isSafe = true;
  node.traverse((child) => {
    const operator = child as unknown as { fn?: unknown; op?: string; args?: MathNode[] };
    const isFactorial =
      (child.type === "OperatorNode" && operator.op === "!") ||
      (child.type === "FunctionNode" && String((operator.fn as { name?: string })?.name) === "factorial");
    if (isFactorial) {
      const argument = operator.args?.[0];
      const value = argument?.type === "ConstantNode" ? Number((argument as unknown as { value: unknown }).value) : NaN;
      if (!(value <= 5000)) isSafe = false;
    }
  });
  return isSafe;
}
