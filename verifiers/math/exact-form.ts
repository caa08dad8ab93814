/**
 * The exact form of an answer (exact-polynomial.ts): its mathjs tree read with exact rationals, so that two answers with
 * the same form are proven equal, whatever their magnitudes: `x^{1000}` and `(x^{10})^{100}`, `e^{-1000}` and
 * `\frac{1}{e^{1000}}`, `(x+10^{20})-10^{20}` and `x`, which no sampling can tell apart from answers that differ
 * by a tiny part. mathjs's `simplify` and nerdamer cannot serve here: the first folds constants in floats
 * (`(1+10^{-45})x - x` simplifies to 0), the second reads decimals as nearby fractions (`0.3333333333333333x - x/3`
 * simplifies to 0), so neither proves an equality (docs/math-verifier.md, "Exact forms").
 */
import type { MathNode } from "mathjs";
import { bigMath, hasInexactLiteral, type CompiledExpression } from "./evaluate-expression.js";
import {
  addPolynomials,
  basePolynomial,
  constantPolynomial,
  constantValue,
  imaginaryBase,
  multiplyPolynomials,
  negatePolynomial,
  NoExactForm,
  opaqueBase,
  positiveConstantBase,
  polynomialRatio,
  powerOf,
  type Polynomial,
  variableBase,
  withinWorkLimit,
} from "./exact-polynomial.js";
import { rational, rationalFromLiteral, type Rational } from "./exact-rational.js";

interface NodeShape {
  type: string;
  name?: string;
  value?: unknown;
  fn?: string | { name?: string; type?: string };
  args?: MathNode[];
  content?: MathNode;
}

// Integer arguments up to this have their factorial multiplied out.
const maxFactorial = 500n;
// Forms by compiled expression (null: it has none); compiled expressions are cached, so a ground truth's is met again.
const forms = new WeakMap<CompiledExpression, Polynomial | null>();

/** Whether `left` and `right` have the same exact form, which proves them equal wherever both are defined. */
export function exactFormsEqual(left: CompiledExpression, right: CompiledExpression): boolean {
  const leftForm = exactForm(left);
  return leftForm !== undefined && leftForm.key === exactForm(right)?.key;
}

/**
 * The rational c ≠ 0 with left = c·right in exact forms (`2x - 4y` against `y - x/2`: -4), which proves two equations
 * `left = 0` and `right = 0` equivalent (and two relations, when c > 0); undefined when the forms show none.
 */
export function exactFormRatio(left: CompiledExpression, right: CompiledExpression): Rational | undefined {
  const [leftForm, rightForm] = [exactForm(left), exactForm(right)];
  return leftForm && rightForm ? polynomialRatio(leftForm, rightForm) : undefined;
}

/** `compiled`'s exact form, or undefined when it has none (a construct not modelled, a form too large). */
export function exactForm(compiled: CompiledExpression): Polynomial | undefined {
  let form = forms.get(compiled);
  if (form === undefined) {
    try {
      const node = hasInexactLiteral(compiled.expression) ? bigMath().parse(compiled.expression) : compiled.node;
      form = withinWorkLimit(() => formOf(node));
    } catch {
      // NoExactForm, or a BigNumber parse that fails.
      form = null;
    }
    forms.set(compiled, form);
  }
  return form ?? undefined;
}

function formOf(node: MathNode): Polynomial {
  const shape = node as unknown as NodeShape;
  switch (shape.type) {
    case "ParenthesisNode":
      return formOf(shape.content!);
    case "ConstantNode": {
      const value = typeof shape.value === "number" || typeof shape.value === "object" ? rationalFromLiteral(String(shape.value)) : undefined;
      if (!value) throw new NoExactForm();
      return constantPolynomial(value);
    }
    case "SymbolNode":
      return symbolForm(shape.name!);
    case "OperatorNode":
      return operatorForm(typeof shape.fn === "string" ? shape.fn : "", (shape.args ?? []).map(formOf));
    case "FunctionNode": {
      // A call of a name (`sin(x)`), not of an expression.
      const name = typeof shape.fn === "object" && shape.fn.type === "SymbolNode" ? shape.fn.name : undefined;
      if (name === undefined) throw new NoExactForm();
      return functionForm(name, (shape.args ?? []).map(formOf));
    }
    default:
      throw new NoExactForm();
  }
}

function symbolForm(name: string): Polynomial {
  if (name === "pi" || name === "e") return basePolynomial(positiveConstantBase(name));
  if (name === "i") return basePolynomial(imaginaryBase);
  // An infinity is no number: ∞ - ∞ has no form.
  if (name === "Infinity" || name === "NaN") throw new NoExactForm();
  return basePolynomial(variableBase(name));
}

function operatorForm(name: string, args: Polynomial[]): Polynomial {
  const [a, b] = args as [Polynomial, Polynomial];
  switch (args.length === 1 ? name : `${name}/${args.length}`) {
    case "add/2":
      return addPolynomials(a, b);
    case "subtract/2":
      return addPolynomials(a, negatePolynomial(b));
    case "multiply/2":
      return multiplyPolynomials(a, b);
    case "divide/2":
      return multiplyPolynomials(a, powerOf(b, constantPolynomial(rational(-1n))));
    case "pow/2":
      return powerOf(a, b);
    case "unaryMinus":
      return negatePolynomial(a);
    case "unaryPlus":
      return a;
    default:
      return functionForm(name, args);
  }
}

function functionForm(name: string, args: Polynomial[]): Polynomial {
  const [argument] = args;
  const constant = argument && args.length === 1 ? constantValue(argument) : undefined;
  if (name === "sqrt" && args.length === 1) return powerOf(argument!, constantPolynomial(rational(1n, 2n)));
  if (name === "exp" && args.length === 1) return powerOf(basePolynomial(positiveConstantBase("e")), argument!);
  if (name === "pow" && args.length === 2) return powerOf(args[0]!, args[1]!);
  if (constant !== undefined) {
    const { numerator, denominator } = constant;
    const floor = numerator / denominator - (numerator < 0n && numerator % denominator !== 0n ? 1n : 0n);
    if (name === "abs") return constantPolynomial(rational(numerator < 0n ? -numerator : numerator, denominator));
    if (name === "floor") return constantPolynomial(rational(floor));
    if (name === "ceil") return constantPolynomial(rational(numerator % denominator === 0n ? floor : floor + 1n));
    if (name === "factorial" && denominator === 1n && numerator >= 0n && numerator <= maxFactorial) {
      let product = 1n;
      for (let factor = 2n; factor <= numerator; factor += 1n) product *= factor;
      return constantPolynomial(rational(product));
    }
  }
  return basePolynomial(opaqueBase(name, args));
}
