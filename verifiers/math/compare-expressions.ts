/** Equivalence of two expressions: exact or stated-precision numbers, then random-point sampling, then nerdamer. */
import { createRequire } from "node:module";
import { compareComplexInDigits } from "./compare-complex-in-digits.js";
import { compareInDigits, floatsVouchFor, proportionalInDigits, type DigitsOutcome } from "./compare-in-digits.js";
import { exactFormRatio, exactFormsEqual } from "./exact-form.js";
import {
  addRationals,
  compareRationals,
  negateRational,
  rational,
  rationalFromLiteral,
  rationalsEqual,
  type Rational,
} from "./exact-rational.js";
import {
  bigDifference,
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
  // The same exact form proves equality at any magnitude; a different one proves nothing, and the checks below decide.
  // Two rational constants need none: their exact rationals decide (compareConstants).
  const isRational = symbols.length === 0 && exactRational(left) !== undefined && exactRational(right) !== undefined;
  if (!isRational && exactFormsEqual(left, right)) return { equal: true, reason: "same exact form" };
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
    const [literal, exact, exactCompiled] = truthIsDecimal ? [truth, b, right] : [predicted, a, left];
    if (roundsTo(literal, exact, exactCompiled, policy.minSignificantDigits)) {
      return { equal: true, reason: `exact value rounds to ${literal.text}` };
    }
  }
  if (truthIsDecimal && predictedIsDecimal) {
    // Exactly, not as floats: `0.1000000000000000000001` is not `0.1`.
    const [truthValue, predictedValue] = [decimalValue(truth.text), decimalValue(predicted.text)];
    const equal = truthValue !== undefined && predictedValue !== undefined && rationalsEqual(truthValue, predictedValue);
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
  // mathjs's 64 digits are real: where a value is complex, at the end (`6.0000000000001-5i` against `6-5i`) or on the
  // way to a real one (`e^{-\pi/2}+10^{-14}` against `i^i`), complex arithmetic in grown digits decides; where it cannot
  // run (a function of a complex value it does not model), the checks below do as before.
  if (a.imaginary !== 0 || b.imaginary !== 0 || bigNumbersEqual(left, right) === undefined) {
    const outcome = compareComplexInDigits(left, right, noVariables);
    if (outcome === "equal") return { equal: true, reason: "equal in complex digits" };
    if (outcome === "different") return { equal: false, reason: "different values (complex digits)" };
  }
  // A part past what floats and 64 digits resolve (`e^{-1000}` added to π): digits grown with the magnitudes decide.
  const isVouched = floatsVouchFor(left, noVariables) && floatsVouchFor(right, noVariables);
  if (!isVouched) {
    const outcome = compareInDigits(left, right, noVariables);
    if (outcome.kind === "equal") return { equal: true, reason: `equal in ${outcome.digits} digits` };
    if (outcome.kind === "different") return { equal: false, reason: `different values (${outcome.digits} digits)` };
    if (outcome.kind === "undecided") return { equal: false, reason: beyondDigits };
  }
  if (hasValueBeyondPrecision(left) || hasValueBeyondPrecision(right)) {
    return { equal: false, reason: "not shown equal: values beyond float and 64-digit precision" };
  }
  // Float agreement within 1e-12 is confirmed in 64 digits where they evaluate: √2 + 2^{-40} is not √2. Identical
  // floats below 4 need no check where floats vouch for every part: each is at least 1e-15, more than half a float
  // step there. A literal past 15 digits is no such part (`1.41421356237309504881` is √2 as a float).
  const isIdenticalSmall = isVouched && a.real === b.real && a.imaginary === b.imaginary && magnitude(a) <= 4;
  if (!isIdenticalSmall && bigNumbersEqual(left, right) === false) {
    return { equal: false, reason: "different values (64 digits)" };
  }
  return { equal: true, reason: "numerically equal" };
}

/** Exact comparison: floats in their trusted range, 64-digit (or complex) arithmetic outside it. */
function exactNumbersEqual(a: ComplexValue, b: ComplexValue, left: CompiledExpression, right: CompiledExpression): boolean {
  const scale = Math.max(magnitude(a), magnitude(b));
  const isComplex = a.imaginary !== 0 || b.imaginary !== 0;
  // Both zero in floats may be underflow (1/2004! vs 1/2006!): 64-digit arithmetic decides. When it cannot (factorials
  // past 5000), the values are not shown equal: √2/(9900!+…) is not √3/4900!, though both underflow to 0.
  if (scale === 0) return equalInDigits(left, right);
  if (isComplex || (scale >= floatRange.low && scale <= floatRange.high && Number.isFinite(scale))) {
    if (isComplex && !Number.isFinite(scale)) return false;
    return distance(a, b) <= exactTolerance * scale;
  }
  if (a.real === Infinity || a.real === -Infinity) {
    // Genuine infinities (\infty) compare by sign; overflowed finite values go to 64-digit arithmetic below.
    if (/Infinity/.test(left.source) && /Infinity/.test(right.source)) return a.real === b.real;
  }
  return equalInDigits(left, right);
}

/** Equal in 64 digits, or, where a value on the way is complex (`10^{-20}i^i`), in complex digits; else not shown. */
function equalInDigits(left: CompiledExpression, right: CompiledExpression): boolean {
  return bigNumbersEqual(left, right) ?? compareComplexInDigits(left, right, noVariables) === "equal";
}

/**
 * Whether `exact` rounded to the decimals `literal` states gives `literal` (with enough significant digits): exactly
 * for a rational, in floats for a literal of up to 12 significant digits, else in 64 digits (`0.10000000000000001` is
 * not 1/10 rounded, though floats cannot tell them apart).
 */
function roundsTo(literal: ExpressionValue, exact: ComplexValue, exactCompiled: CompiledExpression, minSignificantDigits: number): boolean {
  if (exact.imaginary !== 0 || !Number.isFinite(exact.real)) return false;
  const digits = literal.text.replace(/^[-+]?0*\.?0*/, "").replace(".", "");
  if (digits.length < minSignificantDigits) return false;
  const halfUnit = rational(1n, 2n * 10n ** BigInt(literal.decimalPlaces ?? 0));
  const literalValue = decimalValue(literal.text);
  const exactValue = exactRational(exactCompiled);
  if (literalValue && exactValue) {
    const difference = addRationals(exactValue, negateRational(literalValue));
    return compareRationals(difference.numerator < 0n ? negateRational(difference) : difference, halfUnit) <= 0;
  }
  if (digits.length <= 12) return Math.abs(exact.real - Number(literal.text)) <= 0.5 * 10 ** -(literal.decimalPlaces ?? 0) * (1 + 1e-9);
  const difference = bigDifference(exactCompiled, literal.text);
  return difference?.lessThanOrEqualTo(`5e-${(literal.decimalPlaces ?? 0) + 1}`) === true;
}

/** The exact value of a decimal answer (`-0.25`, `+.5`), or undefined. */
function decimalValue(text: string): Rational | undefined {
  const value = rationalFromLiteral(text.replace(/^[-+]/, ""));
  return value && text.startsWith("-") ? negateRational(value) : value;
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
      // Where floats do not vouch for the values (a sum cancelling, a value past 10^15), their difference may be their
      // own rounding (`(\sqrt{x^2+10^{40}}-10^{20})10^{20}` is 0 in floats, x^2/2 in fact): grown digits decide.
      const difference = differenceInDigits(left, right, scope);
      if (difference !== undefined) return difference;
      agreeing += 1;
      continue;
    }
    // Float agreement within the tolerance cannot tell a tiny added constant or coefficient (x^2 + 10^{-15},
    // 1.000000000001x^2, \sin(x + 10^{-13})) from nothing: 64-digit arithmetic at the same point decides, or digits
    // grown with the magnitudes where a part is past what 64 digits see (x + 10^{-41}, x^2 + e^{-1000}). Where neither
    // 64 nor complex digits evaluate (gamma of a non-integer), the float agreement stands; where grown digits cannot,
    // nothing is shown.
    // Three points in grown digits show what a tiny part changes at every point; past them, the floats' agreement stands.
    let outcome: DigitsOutcome = { kind: "vouched" };
    if (!floatsVouchFor(left, scope) || !floatsVouchFor(right, scope)) {
      grownChecks += 1;
      if (grownChecks > 3) {
        agreeing += 1;
        continue;
      }
      outcome = compareInDigits(left, right, scope);
      // Grown digits are real arithmetic: where a value is complex (`10^{20}\sqrt{x}` at x < 0, or `\sqrt{x}^2`, real
      // itself), complex arithmetic in grown digits decides. Where it cannot, a complex point decides nothing, as off a
      // real domain, and a real value that neither reaches is not shown equal (below).
      if (outcome.kind === "undecided") {
        const complex = compareComplexInDigits(left, right, scope);
        if (complex === "different") return { equal: false, reason: "differ at a sample point (complex digits)" };
        if (complex === "equal") agreeing += 1;
        if (complex === "equal" || (!isReal(a) && !isReal(b))) continue;
      }
    }
    if (outcome.kind === "different") return { equal: false, reason: `differ at a sample point (${outcome.digits} digits)` };
    if (outcome.kind === "undecided") return { equal: false, reason: beyondDigits };
    // 64 digits have no complex values: where one is complex, at the end (`ix` against `(1+10^{-13})ix`) or on the way
    // (`\sqrt{x}^2`), complex arithmetic in grown digits decides.
    if (outcome.kind === "vouched") {
      const inDigits = isReal(a) ? bigNumbersEqual(left, right, scope) : undefined;
      if (inDigits === false) return { equal: false, reason: "differ at a sample point (64 digits)" };
      if (inDigits === undefined && compareComplexInDigits(left, right, scope) === "different") {
        return { equal: false, reason: "differ at a sample point (complex digits)" };
      }
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
 * The verdict on a float difference at `scope`: a difference, unless floats do not vouch for the values there and grown
 * (or 64) digits show them equal, which makes it float rounding (undefined).
 */
function differenceInDigits(left: CompiledExpression, right: CompiledExpression, scope: Record<string, number>): Comparison | undefined {
  const differs: Comparison = { equal: false, reason: "differ at a sample point" };
  if (floatsVouchFor(left, scope) && floatsVouchFor(right, scope)) return differs;
  const outcome = compareInDigits(left, right, scope);
  if (outcome.kind === "equal") return undefined;
  if (outcome.kind === "vouched" && bigNumbersEqual(left, right, scope) === true) return undefined;
  return outcome.kind === "different" ? { equal: false, reason: `differ at a sample point (${outcome.digits} digits)` } : differs;
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
  // Exact forms equal up to a rational factor prove it at any magnitude (`y = x^{1000}`, `y - (x^{10})^{100} = 0`);
  // the callers use its sign, which a factor past floats (10^{-400}) keeps.
  const ratio = exactFormRatio(left, right);
  if (ratio !== undefined) return Number(ratio.numerator) / Number(ratio.denominator) || Math.sign(Number(ratio.numerator));
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
