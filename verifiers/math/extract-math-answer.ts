/** A comparable answer string for majority voting (maj@k): equal answers in different forms map to the same key. */
import { minimumAnswerLengthLimit } from "./answer-length-limit.js";
import { compileExpression, evaluateComplex } from "./evaluate-expression.js";
import { extractAnswer } from "./extract-answer.js";
import { normalizeAnswer } from "./normalize-answer.js";
import { parseAnswer } from "./parse-answer.js";

/**
 * The normalised final answer of `response`, or undefined when none is found. Constant expressions become their
 * value to 12 significant digits (`\frac{1}{2}`, `0.5` and `1/2` all give "0.5"); other answers their normalised text,
 * and an answer longer than the grader parses (answer-length-limit.ts) its text without whitespace.
 */
export function extractMathAnswer(response: string): string | undefined {
  const extracted = extractAnswer(response);
  if (!extracted) return undefined;
  // An answer longer than the grader parses votes as its text: only the same text meets it.
  if (extracted.text.length > minimumAnswerLengthLimit) return extracted.text.replace(/\s+/g, "");
  const normalized = normalizeAnswer(extracted.text);
  const value = parseAnswer(normalized.text);
  const suffix = normalized.percent ? "%" : "";
  if (value.kind === "expression") {
    const compiled = compileExpression(value.expression);
    const number = compiled && compiled.symbols.length === 0 ? evaluateComplex(compiled) : undefined;
    if (number && Number.isFinite(number.real) && Number.isFinite(number.imaginary)) {
      const real = String(Number(number.real.toPrecision(12)));
      if (number.imaginary === 0) return real + suffix;
      return `${real}${number.imaginary < 0 ? "-" : "+"}${Number(Math.abs(number.imaginary).toPrecision(12))}i`;
    }
  }
  if (value.kind === "equation" && /^[a-zA-Z]$/.test(value.leftText.trim()) && value.right.kind !== "equation") {
    return extractMathAnswer(`\\boxed{${normalized.text.slice(normalized.text.indexOf("=") + 1)}}`);
  }
  return normalized.text.replace(/\s+/g, "") + suffix;
}
