/** Equivalence of two expressions: exact or stated-precision numbers, then random-point sampling, then nerdamer. */
import { createRequire } from "node:module";
import { compareInDigits, floatsVouchFor, proportionalInDigits, type DigitsOutcome } from "./compare-in-digits.js";
import { rationalsEqual } from "./exact-rational.js";
import {
  bigNumbersEqual,
  compileExpression,
  exactRational,
  evaluateComplex,
  hasValueBeyondPrecision,
  isSafeForBigNumbers,
  type CompiledExpression,
  type ComplexValue,
} from "./evaluate-expression.js";
import type { MathPolicy } from "./math-policy.js";
import { hasPiecewiseTerm, wideDecades, wideSamplePoints } from "./wide-sample-points.js";
import type { MathValue } from "./parse-answer.js";

/** Outcome of one comparison, with the rule that decided it. */
export interface Comparison {
  equal: boolean;
  reason: string;
}

type ExpressionValue = Extract<MathValue, { kind: "expression" }>;

// nerdamer (symbolic algebra) is loaded on first use: most verdicts never need it.
const require = createRequire(import.meta.url);
let nerdamerModule: ((expression: string) => { toString(): string }) | undefined;

// Floats are trusted in this magnitude range; outside it (tiny or huge values) 64-digit arithmetic decides.
const floatRange = { low: 1e-6, high: 1e11 };
// Relative tolerance for exact values compared as floats (float noise from sqrt/π is ~1e-15).
const exactTolerance = 1e-12;
const samplingTolerance = 1e-9;
// Fixed sample points (seeded, so a verdict replays exactly), both signs so that |x| ≠ x and √(x²) ≠ x.
const samplePoints = buildSamplePoints(8, 12, 0x5eed);
// The scope of a constant expression: one object, so that its float readings are kept (compare-in-digits.ts).
const noVariables: Record<string, number> = Object.freeze({});
const beyondDigits = "not shown equal: values beyond float and 320-digit precision";

/** Whether the ground-truth and predicted expressions are equivalent under `policy`. */
export function compareExpressions(truth: ExpressionValue, predicted: ExpressionValue, policy: MathPolicy): Comparison {
  if (squash(truth.text) === squash(predicted.text)) return { equal: true, reason: "same expression" };
  const left = compileExpression(truth.expression);
  const right = compileExpression(predicted.expression);
  if (!left || !right) return { equal: false, reason: "unparseable expression" };
  const symbols = [...new Set([...left.symbols, ...right.symbols])];
  if (symbols.length === 0) return compareConstants(truth, left, predicted, right, policy);
  return compareBySampling(left, right, symbols);
}

/** Compares two constant expressions (no free variables). */
function compareConstants(
  truth: ExpressionValue,
  left: CompiledExpression,
  predicted: ExpressionValue,
  right: CompiledExpression,
  policy: MathPolicy,
): Comparison {
  const a = evaluateComplex(left);
  const b = evaluateComplex(right);
  if (!a || !b) return { equal: false, reason: "not a number" };
  const truthIsDecimal = truth.decimalPlaces !== undefined;
  const predictedIsDecimal = predicted.decimalPlaces !== undefined;
  if (policy.acceptRoundedDecimals && truthIsDecimal !== predictedIsDecimal) {
    const [literal, exact] = truthIsDecimal ? [truth, b] : [predicted, a];
    if (roundsTo(literal, exact, policy.minSignificantDigits)) {
      return { equal: true, reason: `exact value rounds to ${literal.text}` };
    }
  }
  if (truthIsDecimal && predictedIsDecimal) {
    const equal = Number(truth.text) === Number(predicted.text);
    return { equal, reason: equal ? "same decimal" : "different decimals" };
  }
  const leftRational = exactRational(left);
  const rightRational = exactRational(right);
  if (leftRational && rightRational) {
    return rationalsEqual(leftRational, rightRational)
      ? { equal: true, reason: "equal rationals" }
      : { equal: false, reason: "different rationals" };
  }
  if (!exactNumbersEqual(a, b, left, right)) return { equal: false, reason: "different values" };
  // A part past what floats and 64 digits resolve (`e^{-1000}` added to π): digits grown with the magnitudes decide.
  if (!floatsVouchFor(left, noVariables) || !floatsVouchFor(right, noVariables)) {
    const outcome = compareInDigits(left, right, noVariables);
    if (outcome.kind === "equal") return { equal: true, reason: `equal in ${outcome.digits} digits` };
    if (outcome.kind === "different") return { equal: false, reason: `different values (${outcome.digits} digits)` };
    if (outcome.kind === "undecided") return { equal: false, reason: beyondDigits };
  }
  if (hasValueBeyondPrecision(left) || hasValueBeyondPrecision(right)) {
    return { equal: false, reason: "not shown equal: values beyond float and 64-digit precision" };
  }
  // Float agreement within 1e-12 is confirmed in 64 digits where they evaluate: √2 + 2^{-40} is not √2. Identical
  // floats below 4 need no check: every part is at least 1e-15 (above), more than half a float step there.
  const isIdenticalSmall = a.real === b.real && a.imaginary === b.imaginary && magnitude(a) <= 4;
  if (!isIdenticalSmall && bigNumbersEqual(left, right) === false) {
    return { equal: false, reason: "different values (64 digits)" };
  }
  return { equal: true, reason: "numerically equal" };
}

/** Exact comparison: floats in their trusted range, 64-digit arithmetic outside it. */
function exactNumbersEqual(a: ComplexValue, b: ComplexValue, left: CompiledExpression, right: CompiledExpression): boolean {
  const scale = Math.max(magnitude(a), magnitude(b));
  const isComplex = a.imaginary !== 0 || b.imaginary !== 0;
  // Both zero in floats may be underflow (1/2004! vs 1/2006!): 64-digit arithmetic decides. When it cannot (factorials
  // past 5000), the values are not shown equal: √2/(9900!+…) is not √3/4900!, though both underflow to 0.
  if (scale === 0) return bigNumbersEqual(left, right) ?? false;
  if (isComplex || (scale >= floatRange.low && scale <= floatRange.high && Number.isFinite(scale))) {
    if (isComplex && !Number.isFinite(scale)) return false;
    return distance(a, b) <= exactTolerance * scale;
  }
  if (a.real === Infinity || a.real === -Infinity) {
    // Genuine infinities (\infty) compare by sign; overflowed finite values go to 64-digit arithmetic below.
    if (/Infinity/.test(left.source) && /Infinity/.test(right.source)) return a.real === b.real;
  }
  return bigNumbersEqual(left, right) ?? false;
}

/** Whether `exact` rounded to the decimals `literal` states gives `literal` (with enough significant digits). */
function roundsTo(literal: ExpressionValue, exact: ComplexValue, minSignificantDigits: number): boolean {
  if (exact.imaginary !== 0 || !Number.isFinite(exact.real)) return false;
  const digits = literal.text.replace(/^[-+]?0*\.?0*/, "").replace(".", "");
  if (digits.length < minSignificantDigits) return false;
  const value = Number(literal.text);
  const halfUnit = 0.5 * 10 ** -(literal.decimalPlaces ?? 0);
  return Math.abs(exact.real - value) <= halfUnit * (1 + 1e-9);
}

/** Expressions with variables: equal when they agree at every sample point where both are defined (at least 3). */
function compareBySampling(left: CompiledExpression, right: CompiledExpression, symbols: string[]): Comparison {
  let agreeing = 0;
  let offDomain = 0;
  let grownChecks = 0;
  for (const scope of sampleScopes(symbols)) {
    const a = evaluateComplex(left, scope);
    const b = evaluateComplex(right, scope);
    if (!a || !b || !Number.isFinite(magnitude(a)) || !Number.isFinite(magnitude(b))) continue;
    // A point where one side is real and the other is not lies off one side's real domain (`x^{2/3}` takes the
    // principal complex root at x < 0, `\sqrt[3]{x}^2` the real one): it decides nothing.
    if (isReal(a) !== isReal(b)) {
      offDomain += 1;
      continue;
    }
    const difference = distance(a, b);
    if (difference > samplingTolerance * Math.max(magnitude(a), magnitude(b)) + 1e-12) {
      return { equal: false, reason: "differ at a sample point" };
    }
    // Float agreement within the tolerance cannot tell a tiny added constant or coefficient (x^2 + 10^{-15},
    // 1.000000000001x^2, \sin(x + 10^{-13})) from nothing: 64-digit arithmetic at the same point decides, or digits
    // grown with the magnitudes where a part is past what 64 digits see (x + 10^{-41}, x^2 + e^{-1000}). Where 64
    // digits cannot evaluate (complex values), the float agreement stands; where grown digits cannot, nothing is shown.
    // Three points in grown digits show what a tiny part changes at every point; past them, the floats' agreement stands.
    let outcome: DigitsOutcome = { kind: "vouched" };
    if (!floatsVouchFor(left, scope) || !floatsVouchFor(right, scope)) {
      grownChecks += 1;
      if (grownChecks > 3) {
        agreeing += 1;
        continue;
      }
      outcome = compareInDigits(left, right, scope);
      // Grown digits are real arithmetic: a point where both sides are complex (`10^{20}\sqrt{x}` at x < 0) decides
      // nothing there, as off a real domain. A real value that they cannot reach is not shown equal (below).
      if (outcome.kind === "undecided" && !isReal(a) && !isReal(b)) continue;
    }
    if (outcome.kind === "different") return { equal: false, reason: `differ at a sample point (${outcome.digits} digits)` };
    if (outcome.kind === "undecided") return { equal: false, reason: beyondDigits };
    if (outcome.kind === "vouched" && bigNumbersEqual(left, right, scope) === false) {
      return { equal: false, reason: "differ at a sample point (64 digits)" };
    }
    agreeing += 1;
  }
  if (agreeing >= 3) {
    const wide = hasPiecewiseTerm(left) || hasPiecewiseTerm(right) ? compareAtWidePoints(left, right, symbols) : undefined;
    return wide ?? { equal: true, reason: `agree at ${agreeing} sample points` };
  }
  // Real at no common point, though each side is real somewhere: different real domains (`\sqrt{x}`, `\sqrt{-x}`).
  if (agreeing === 0 && offDomain > 0) return { equal: false, reason: "different real domains" };
  return symbolicDifferenceIsZero(left, right)
    ? { equal: true, reason: "difference simplifies to 0" }
    : { equal: false, reason: "not shown equal" };
}

/**
 * A floor, ceiling or absolute value of a variable can agree at every sample point and differ elsewhere
 * (`x + \lfloor x^2/100 \rfloor`, `|x - 100|`): the wide points (wide-sample-points.ts) look for a difference, which
 * floats find and grown digits confirm (float rounding of large values is no difference). Undefined when none is found.
 */
function compareAtWidePoints(left: CompiledExpression, right: CompiledExpression, symbols: string[]): Comparison | undefined {
  const decades = wideDecades([left, right]);
  if (decades === undefined) return { equal: false, reason: "not shown equal: a floor, ceiling or absolute value beside a constant past 10^26" };
  for (const point of wideSamplePoints(decades, symbols.length)) {
    const scope = Object.fromEntries(symbols.map((symbol, index) => [symbol, point[index]!]));
    const a = evaluateComplex(left, scope);
    const b = evaluateComplex(right, scope);
    if (!a || !b || !Number.isFinite(magnitude(a)) || !Number.isFinite(magnitude(b)) || isReal(a) !== isReal(b)) continue;
    if (distance(a, b) <= samplingTolerance * Math.max(magnitude(a), magnitude(b))) continue;
    const outcome = compareInDigits(left, right, scope);
    const isDifferent = outcome.kind === "different" || (outcome.kind === "vouched" && bigNumbersEqual(left, right, scope) === false);
    if (isDifferent) return { equal: false, reason: "differ at a wide sample point" };
  }
  return undefined;
}

/** nerdamer: does `simplify(left - right)` give 0? Used when sampling cannot decide (domains, undefined points). */
function symbolicDifferenceIsZero(left: CompiledExpression, right: CompiledExpression): boolean {
  if (!isSafeForBigNumbers(left.node) || !isSafeForBigNumbers(right.node)) return false;
  try {
    nerdamerModule ??= require("nerdamer/all.js") as (expression: string) => { toString(): string };
    const difference = nerdamerModule(`simplify((${toNerdamer(left.source)})-(${toNerdamer(right.source)}))`);
    return difference.toString() === "0";
  } catch {
    return false;
  }
}

// nerdamer spells a few functions differently from mathjs.
function toNerdamer(source: string): string {
  return source.replace(/\bnthRoot\(/g, "nthroot(").replace(/\bInfinity\b/g, "Infinity");
}

/** Ratio test for `f = c·g`: used by equations (any c ≠ 0) and relations (c > 0). Undefined when it cannot decide. */
export function proportionalFactor(left: CompiledExpression, right: CompiledExpression, symbols: string[]): number | undefined {
  let factor: number | undefined;
  let samples = 0;
  // The points used, and whether floats vouch for every value there: a tiny term (`x - y + 10^{-41} = 0` against
  // `y = x`) leaves float ratios equal, so then the ratios are confirmed in grown digits.
  const scopes: Record<string, number>[] = [];
  let isVouched = true;
  for (const scope of sampleScopes(symbols)) {
    const a = evaluateComplex(left, scope);
    const b = evaluateComplex(right, scope);
    if (!a || !b || a.imaginary !== 0 || b.imaginary !== 0 || !Number.isFinite(a.real) || !Number.isFinite(b.real)) continue;
    if (Math.abs(b.real) < 1e-12) {
      if (Math.abs(a.real) < 1e-12) continue;
      return undefined;
    }
    const ratio = a.real / b.real;
    if (factor === undefined) factor = ratio;
    else if (Math.abs(ratio - factor) > samplingTolerance * Math.max(Math.abs(ratio), Math.abs(factor))) return undefined;
    samples += 1;
    scopes.push(scope);
    isVouched &&= floatsVouchFor(left, scope) && floatsVouchFor(right, scope);
  }
  if (samples < 3 || factor === undefined || factor === 0) return undefined;
  return isVouched || proportionalInDigits(left, right, scopes) === true ? factor : undefined;
}

/**
 * The sample points with `symbols` bound, one scope object per point, made once per list of names: the caches of
 * float readings (compare-in-digits.ts) are kept by scope object, so the ground truth's are met again.
 */
function sampleScopes(symbols: string[]): Record<string, number>[] {
  const key = symbols.join(",");
  let scopes = scopesByNames.get(key);
  if (!scopes) {
    scopes = samplePoints.map((point) => Object.fromEntries(symbols.map((symbol, index) => [symbol, point[index % point.length]!])));
    if (scopesByNames.size >= scopesByNamesLimit) scopesByNames.clear();
    scopesByNames.set(key, scopes);
  }
  return scopes;
}

const scopesByNames = new Map<string, Record<string, number>[]>();
const scopesByNamesLimit = 256;

function isReal(value: ComplexValue): boolean {
  return Math.abs(value.imaginary) <= 1e-12 * Math.max(1, Math.abs(value.real));
}

function magnitude(value: ComplexValue): number {
  return Math.hypot(value.real, value.imaginary);
}

function distance(a: ComplexValue, b: ComplexValue): number {
  return Math.hypot(a.real - b.real, a.imaginary - b.imaginary);
}

function squash(text: string): string {
  return text.replace(/\s+/g, "");
}

/** Deterministic pseudo-random points (mulberry32) with `dimensions` coordinates of magnitude in [0.3, 2.7], either sign. */
function buildSamplePoints(count: number, dimensions: number, seed: number): number[][] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, (_, index) =>
    // Every other point starts positive, so half the first coordinates are positive and half negative.
    Array.from({ length: dimensions }, (_, coordinate) => {
      const magnitude = 0.3 + 2.4 * next();
      const isNegative = coordinate === 0 ? index % 2 === 1 : next() < 0.5;
      return isNegative ? -magnitude : magnitude;
    }),
  );
}
