/** The calculator tool's engine: mathjs on a normalised expression (rLLM's normalisations), with the mutating functions disabled. */
import { all, create, typeOf } from "mathjs";

// Built on first use: a full mathjs instance takes a noticeable time to create, and most commands never calculate.
let evaluateExpression: ((expression: string) => unknown) | undefined;

/** mathjs' evaluate on an instance whose mutating functions are disabled (mathjs' security guidance). */
function calculatorEvaluate(): (expression: string) => unknown {
  if (evaluateExpression) return evaluateExpression;
  // mathjs types its exports as entries of a Record, which reads as possibly undefined; `all` is always there.
  const math = create(all!);
  const evaluate = math.evaluate;
  // An expression must not be able to redefine functions or reach the parser itself.
  const disabled = ["import", "createUnit", "evaluate", "parse", "compile", "simplify", "derivative", "resolve", "reviver", "config"];
  math.import(
    Object.fromEntries(
      disabled.map((name) => [
        name,
        () => {
          throw new Error(`${name} is not available in the calculator`);
        },
      ]),
    ),
    { override: true },
  );
  evaluateExpression = evaluate;
  return evaluate;
}

// Longer inputs are not arithmetic a financial question needs.
const maxExpressionLength = 1000;

/** What the model may write that mathjs would not read: currency, separators, unicode operators and digits, `N%`. */
export function normaliseExpression(expression: string): string {
  return expression
    .replace(/[\u00a0\u2009\u202f]/g, " ")
    .replace(/[\uff10-\uff19]/g, (digit) => String(digit.charCodeAt(0) - 0xff10))
    .replace(/[−–—]/g, "-")
    .replace(/[×✕]/g, "*")
    .replace(/÷/g, "/")
    .replace(/\*\*/g, "^")
    .replace(/[$€£¥]/g, "")
    .replace(/\b\d{1,3}(?:,\d{3})+(?![\d])/g, (number) => number.replaceAll(",", ""))
    .replace(/(\d+(?:\.\d+)?|\.\d+)\s*%/g, "($1/100)")
    .trim();
}

/** The value of `expression`, or an Error whose message tells the model what to fix. */
export function calculate(expression: string): number | Error {
  if (expression.length > maxExpressionLength) return new Error(`the expression is longer than ${maxExpressionLength} characters`);
  const normalised = normaliseExpression(expression);
  if (normalised === "") return new Error("the expression is empty");
  let result: unknown;
  try {
    result = calculatorEvaluate()(normalised);
  } catch (error) {
    return new Error(`cannot evaluate "${normalised}": ${(error as Error).message}`);
  }
  const value = typeof result === "number" ? result : typeof result === "boolean" ? Number(result) : Number.NaN;
  if (typeof result !== "number" && typeof result !== "boolean") {
    return new Error(`"${normalised}" is not a single number (got ${typeOf(result)}); use plain arithmetic`);
  }
  if (!Number.isFinite(value)) return new Error(`"${normalised}" is not a finite number (division by zero?)`);
  // 12 significant digits hide binary noise such as 0.1 + 0.2 = 0.30000000000000004.
  return Number(value.toPrecision(12));
}
