/**
 * Exact algebra for proving two answers equal (issue #44): a sum of terms, each an exact rational times powers of
 * bases (variables, π and e, i, positive rationals, function terms, sums), brought to one normal form, so that two
 * expressions with the same form are equal wherever both are defined. Every rewrite is an identity of complex numbers
 * with principal powers (b^p = e^{p·Log b}, as mathjs computes them), never a numeric judgement: b^p·b^q = b^{p+q};
 * (b^p)^n = b^{pn} and (uv)^n = u^n·v^n for integers n; (c·u)^p = c^p·u^p and (c^q)^p = c^{qp} for a positive c and a
 * real q. Different forms prove nothing: the caller then compares as before (docs/math-verifier.md, "Exact forms").
 */
import {
  absoluteRational,
  addRationals,
  floorRational,
  greatestCommonDivisor,
  invertRational,
  multiplyRationals,
  negateRational,
  rational,
  rationalDigits,
  rationalPower,
  smallestPower,
  type Rational,
} from "./exact-rational.js";

/** A sum of terms in normal form; `key` is equal for equal forms and only for them. */
export interface Polynomial {
  terms: readonly Term[];
  key: string;
}

interface Term {
  coefficient: Rational;
  /** Sorted by base key, one per base, no zero exponent. */
  factors: readonly Factor[];
  /** The factors' key ("" for a constant term). */
  key: string;
}

interface Factor {
  base: Base;
  exponent: Polynomial;
}

/**
 * What a power is taken of: a variable, a positive real constant (π, e), the imaginary unit, a positive rational other
 * than 1 (its integer powers fold into the coefficient), a function term (opaque: equal only to itself), or a sum or a
 * product that a power could not be distributed over.
 */
export interface Base {
  key: string;
  kind: "variable" | "positive" | "imaginary" | "number" | "opaque" | "polynomial";
  value?: Rational;
  polynomial?: Polynomial;
}

/** Thrown when a form would grow past the bounds below, or is undefined (a power of 0 that is not positive). */
export class NoExactForm extends Error {}

// Products of terms one form may take: a real answer's take tens, and an answer of 2,000 characters could otherwise
// take millions (a product of many sums).
const workLimit = 2_000;
let work = 0;

/** `build()`, which makes one form, within the work limit (else NoExactForm). */
export function withinWorkLimit<T>(build: () => T): T {
  work = 0;
  return build();
}

// Bounds that keep a form cheap: terms of a sum, term products in one product of sums or one power of a sum expanded
// by squaring ((x+1)^{255} is kept as a power: its squares take 23,000 products), and digits of a coefficient
// (10^{-1000} still has an exact form).
const maxTerms = 256;
const maxProducts = 1024;
const largestInteger = 10n ** 2000n;

const one: Rational = { numerator: 1n, denominator: 1n };
const zeroPolynomial: Polynomial = { terms: [], key: "0" };

export function constantPolynomial(value: Rational): Polynomial {
  return makePolynomial([{ coefficient: value, factors: [], key: "" }]);
}

/** `base` to the first power. */
export function basePolynomial(base: Base): Polynomial {
  return normalTerm(one, [{ base, exponent: constantPolynomial(one) }]);
}

export function variableBase(name: string): Base {
  return { key: `v:${name}`, kind: "variable" };
}

export function positiveConstantBase(name: "pi" | "e"): Base {
  return { key: `c:${name}`, kind: "positive" };
}

export const imaginaryBase: Base = { key: "c:i", kind: "imaginary" };

/** A function of exact forms (`floor`, `sin`, `nthRoot`…), equal only to the same function of the same forms. */
export function opaqueBase(name: string, args: readonly Polynomial[]): Base {
  return { key: `f:${name}(${args.map((argument) => argument.key).join(";")})`, kind: "opaque" };
}

/** The value of a constant form, or undefined when it has a base. */
export function constantValue(polynomial: Polynomial): Rational | undefined {
  if (polynomial.terms.length === 0) return { numerator: 0n, denominator: 1n };
  const [term] = polynomial.terms;
  return polynomial.terms.length === 1 && term!.factors.length === 0 ? term!.coefficient : undefined;
}

/** The rational c ≠ 0 with a = c·b, when a and b have the same terms up to it; else undefined. */
export function polynomialRatio(a: Polynomial, b: Polynomial): Rational | undefined {
  if (a.terms.length === 0 || a.terms.length !== b.terms.length) return undefined;
  let ratio: Rational | undefined;
  for (const [index, term] of a.terms.entries()) {
    const other = b.terms[index]!;
    if (term.key !== other.key) return undefined;
    const termRatio = multiplyRationals(term.coefficient, invertRational(other.coefficient));
    if (ratio !== undefined && (ratio.numerator !== termRatio.numerator || ratio.denominator !== termRatio.denominator)) return undefined;
    ratio = termRatio;
  }
  return ratio;
}

export function addPolynomials(a: Polynomial, b: Polynomial): Polynomial {
  // Exponents are mostly constants: their sum needs no sorting.
  const [left, right] = [constantValue(a), constantValue(b)];
  if (left !== undefined && right !== undefined) return constantPolynomial(addRationals(left, right));
  return makePolynomial([...a.terms, ...b.terms]);
}

export function negatePolynomial(a: Polynomial): Polynomial {
  return makePolynomial(a.terms.map((term) => ({ ...term, coefficient: negateRational(term.coefficient) })));
}

export function multiplyPolynomials(a: Polynomial, b: Polynomial): Polynomial {
  if (a.terms.length * b.terms.length > maxProducts) throw new NoExactForm();
  const terms: Term[] = [];
  for (const left of a.terms) {
    for (const right of b.terms) terms.push(...multiplyTerms(left, right).terms);
  }
  return makePolynomial(terms);
}

/** `base^exponent` (see the identities above). */
export function powerOf(base: Polynomial, exponent: Polynomial): Polynomial {
  if (exponent.terms.length === 0) return constantPolynomial(one);
  const constant = constantValue(exponent);
  if (base.terms.length === 0) {
    if (constant !== undefined && constant.numerator > 0n) return zeroPolynomial;
    throw new NoExactForm();
  }
  if (constant?.denominator === 1n) return integerPower(base, constant.numerator);
  if (base.terms.length > 1) {
    // (c·P)^E = c^E·P^E for the positive content c.
    const [content, primitive] = splitContent(base);
    const factor: Factor = { base: polynomialBase(primitive), exponent };
    const contentFactor = numberFactor(content, exponent);
    return normalTerm(one, contentFactor ? [contentFactor, factor] : [factor]);
  }
  const term = base.terms[0]!;
  const factors: (Factor | undefined)[] = [numberFactor(absoluteRational(term.coefficient), exponent)];
  const rest: Factor[] = [];
  for (const factor of term.factors) {
    const isPositive = factor.base.kind === "number" || factor.base.kind === "positive";
    if (isPositive && constantValue(factor.exponent) !== undefined) {
      factors.push({ base: factor.base, exponent: multiplyPolynomials(factor.exponent, exponent) });
    } else {
      rest.push(factor);
    }
  }
  const isNegative = term.coefficient.numerator < 0n;
  if (rest.length === 0 && isNegative) {
    // (-1)^E = e^{iπE} = i^{2E}.
    factors.push({ base: imaginaryBase, exponent: multiplyPolynomials(exponent, constantPolynomial(rational(2n))) });
  } else if (rest.length === 1 && !isNegative && constantValue(rest[0]!.exponent)?.numerator === 1n && constantValue(rest[0]!.exponent)?.denominator === 1n) {
    factors.push({ base: rest[0]!.base, exponent });
  } else if (rest.length > 0) {
    const remainder = makePolynomial([{ coefficient: isNegative ? rational(-1n) : one, factors: rest, key: factorsKey(rest) }]);
    factors.push({ base: polynomialBase(remainder), exponent });
  }
  return normalTerm(one, factors.filter((factor): factor is Factor => factor !== undefined));
}

function integerPower(base: Polynomial, exponent: bigint): Polynomial {
  if (exponent === 0n) return constantPolynomial(one);
  if (base.terms.length === 1) {
    const term = base.terms[0]!;
    const scale = constantPolynomial(rational(exponent));
    const factors = term.factors.map((factor) => ({ base: factor.base, exponent: multiplyPolynomials(factor.exponent, scale) }));
    return normalTerm(exactPower(term.coefficient, exponent), factors);
  }
  if (exponent > 0n && expansionProducts(base.terms.length, exponent) <= maxProducts) {
    let result = constantPolynomial(one);
    let square = base;
    for (let remaining = exponent; remaining > 0n; remaining >>= 1n) {
      if (remaining & 1n) result = multiplyPolynomials(result, square);
      if (remaining > 1n) square = multiplyPolynomials(square, square);
    }
    return result;
  }
  const [content, primitive] = splitContent(base);
  return normalTerm(exactPower(content, exponent), [{ base: polynomialBase(primitive), exponent: constantPolynomial(rational(exponent)) }]);
}

function multiplyTerms(left: Term, right: Term): Polynomial {
  work += 1;
  if (work > workLimit) throw new NoExactForm();
  return normalTerm(multiplyRationals(left.coefficient, right.coefficient), [...left.factors, ...right.factors]);
}

/**
 * The form of `coefficient · Π factors`: integer parts of the powers of rationals and of i fold into the coefficient,
 * and a sum or product to an integer power is expanded (when small) or distributed. Folding can leave a base to an
 * integer power again (8^{1/2}·2^{1/2} is 2^{3/2}·2^{1/2}, then 2^2): the factors go round until nothing changes.
 */
function normalTerm(coefficient: Rational, factors: readonly Factor[]): Polynomial {
  let scale = coefficient;
  let current = mergeFactors(factors);
  const expansions: Polynomial[] = [];
  for (let round = 0; round < 4; round += 1) {
    const next: Factor[] = [];
    let isChanged = false;
    for (const factor of current) {
      const folded = foldFactor(factor);
      if (folded === undefined) {
        next.push(factor);
        continue;
      }
      isChanged = true;
      scale = multiplyRationals(scale, folded.scale);
      if (folded.factor) next.push(folded.factor);
      if (folded.expansion) expansions.push(folded.expansion);
    }
    current = mergeFactors(next);
    if (!isChanged) break;
  }
  let result = makePolynomial([{ coefficient: scale, factors: current, key: factorsKey(current) }]);
  for (const expansion of expansions) result = multiplyPolynomials(result, expansion);
  return result;
}

/** One factor with what it folds into the coefficient, or undefined when it stays as it is. */
function foldFactor(factor: Factor): { scale: Rational; factor?: Factor; expansion?: Polynomial } | undefined {
  const { base, exponent } = factor;
  if (base.kind === "number") {
    // (1/b)^E = b^{-E}, and b = r^m (m as large as it goes) gives r^{mE}: one base for each value.
    const isBelowOne = base.value!.numerator < base.value!.denominator;
    const [reduced, root] = smallestPower(isBelowOne ? invertRational(base.value!) : base.value!);
    const multiple = isBelowOne ? -root : root;
    const scaled = multiple === 1n ? exponent : multiplyPolynomials(exponent, constantPolynomial(rational(multiple)));
    const whole = floorRational(constantPart(scaled));
    const isAffordable = whole !== 0n && rationalDigits(reduced) * Math.abs(Number(whole)) <= 2000;
    if (multiple === 1n && !isAffordable) return undefined;
    if (!isAffordable) return { scale: one, factor: { base: numberBase(reduced), exponent: scaled } };
    const rest = addPolynomials(scaled, constantPolynomial(rational(-whole)));
    return { scale: exactPower(reduced, whole), factor: { base: numberBase(reduced), exponent: rest } };
  }
  if (base.kind === "imaginary") {
    // i^{2m} = (-1)^m.
    const half = floorRational(multiplyRationals(constantPart(exponent), rational(1n, 2n)));
    if (half === 0n) return undefined;
    const rest = addPolynomials(exponent, constantPolynomial(rational(-2n * half)));
    return { scale: rational(half % 2n === 0n ? 1n : -1n), factor: { base, exponent: rest } };
  }
  if (base.kind !== "polynomial") return undefined;
  const power = constantValue(exponent);
  if (power?.denominator !== 1n) return undefined;
  const polynomial = base.polynomial!;
  if (polynomial.terms.length === 1 || (power.numerator > 0n && expansionProducts(polynomial.terms.length, power.numerator) <= maxProducts)) {
    return { scale: one, expansion: integerPower(polynomial, power.numerator) };
  }
  if (polynomial.terms[0]!.coefficient.numerator > 0n) return undefined;
  // (-P)^n = (-1)^n·P^n: the first term of a sum to an integer power is positive.
  return { scale: rational(power.numerator % 2n === 0n ? 1n : -1n), factor: { base: polynomialBase(negatePolynomial(polynomial)), exponent } };
}

/** Factors with the same base multiplied (b^p·b^q = b^{p+q}), those to the power 0 dropped, sorted by base. */
function mergeFactors(factors: readonly Factor[]): Factor[] {
  const merged = new Map<string, Factor>();
  for (const factor of factors) {
    const known = merged.get(factor.base.key);
    merged.set(factor.base.key, known ? { base: factor.base, exponent: addPolynomials(known.exponent, factor.exponent) } : factor);
  }
  return [...merged.values()]
    .filter((factor) => factor.exponent.terms.length > 0)
    .sort((a, b) => (a.base.key < b.base.key ? -1 : a.base.key > b.base.key ? 1 : 0));
}

/** Terms sorted by key with equal keys summed and zero coefficients dropped. */
function makePolynomial(terms: readonly Term[]): Polynomial {
  if (terms.length === 1) {
    const [term] = terms as [Term];
    if (term.coefficient.numerator === 0n) return zeroPolynomial;
    checkSize(term.coefficient);
    return { terms, key: termKey(term) };
  }
  const byKey = new Map<string, Term>();
  for (const term of terms) {
    const known = byKey.get(term.key);
    byKey.set(term.key, known ? { ...known, coefficient: addRationals(known.coefficient, term.coefficient) } : term);
  }
  const kept = [...byKey.values()].filter((term) => term.coefficient.numerator !== 0n);
  if (kept.length > maxTerms) throw new NoExactForm();
  kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const term of kept) checkSize(term.coefficient);
  return { terms: kept, key: kept.length === 0 ? "0" : kept.map(termKey).join(" + ") };
}

function termKey(term: Term): string {
  return term.key === "" ? rationalKey(term.coefficient) : `${rationalKey(term.coefficient)}*${term.key}`;
}

/** The key of factors merged and sorted (mergeFactors). */
function factorsKey(factors: readonly Factor[]): string {
  return factors
    .map((factor) => (factor.exponent.key === "1/1" ? factor.base.key : `${factor.base.key}^(${factor.exponent.key})`))
    .join("*");
}

function polynomialBase(polynomial: Polynomial): Base {
  return { key: `p:[${polynomial.key}]`, kind: "polynomial", polynomial };
}

function numberBase(value: Rational): Base {
  return { key: `n:${rationalKey(value)}`, kind: "number", value };
}

/** `value^exponent` as a factor, or undefined for a value of 1. */
function numberFactor(value: Rational, exponent: Polynomial): Factor | undefined {
  return value.numerator === value.denominator ? undefined : { base: numberBase(value), exponent };
}

/** A sum as its positive content (the largest rational dividing every coefficient) times the rest. */
function splitContent(polynomial: Polynomial): [Rational, Polynomial] {
  let numerators = 0n;
  let denominators = 1n;
  for (const { coefficient } of polynomial.terms) {
    numerators = greatestCommonDivisor(numerators, absoluteRational(coefficient).numerator);
    denominators = (denominators * coefficient.denominator) / greatestCommonDivisor(denominators, coefficient.denominator);
  }
  const content = rational(numerators, denominators);
  const inverse = invertRational(content);
  return [content, makePolynomial(polynomial.terms.map((term) => ({ ...term, coefficient: multiplyRationals(term.coefficient, inverse) })))];
}

/**
 * The term products that expanding a sum of `count` terms to `power` by squaring takes (integerPower), counting each
 * intermediate power at its most terms, C(k + count - 1, count - 1); infinite past maxTerms terms.
 */
function expansionProducts(count: number, power: bigint): number {
  if (power > BigInt(maxTerms)) return Number.POSITIVE_INFINITY;
  const terms = (exponent: number) => {
    let result = 1;
    for (let index = 1; index < count && result <= maxTerms; index += 1) result = (result * (exponent + index)) / index;
    return result;
  };
  if (terms(Number(power)) > maxTerms) return Number.POSITIVE_INFINITY;
  let products = 0;
  let [resultPower, squarePower] = [0, 1];
  for (let remaining = Number(power); remaining > 0; remaining >>= 1) {
    if (remaining & 1) {
      products += terms(resultPower) * terms(squarePower);
      resultPower += squarePower;
    }
    if (remaining > 1) {
      products += terms(squarePower) ** 2;
      squarePower *= 2;
    }
  }
  return products;
}

/** The constant term of a form (0 when it has none). */
function constantPart(polynomial: Polynomial): Rational {
  return polynomial.terms.find((term) => term.factors.length === 0)?.coefficient ?? { numerator: 0n, denominator: 1n };
}

/** `value^exponent`, within the bound on digits (else NoExactForm). */
function exactPower(value: Rational, exponent: bigint): Rational {
  const power = rationalPower(value, exponent);
  if (power === undefined) throw new NoExactForm();
  return power;
}

function checkSize(value: Rational): void {
  if (value.numerator > largestInteger || -value.numerator > largestInteger || value.denominator > largestInteger) throw new NoExactForm();
}

function rationalKey(value: Rational): string {
  return `${value.numerator}/${value.denominator}`;
}
