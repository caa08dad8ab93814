/** A FinQA answer reduced to a value that equal answers share, for majority voting (maj@k). */
import { extractFinalAnswer } from "./extract-final-answer.js";
import { candidateValues, parseFinancialNumbers, pickAnswerNumber } from "./financial-number.js";

/** The answer's number in absolute units at 3 significant digits (14.46% and 0.1446 → "0.145"), else yes/no, else undefined. */
export function finqaComparableAnswer(reply: string): string | undefined {
  const answer = extractFinalAnswer(reply);
  const number = pickAnswerNumber(parseFinancialNumbers(answer.text), answer.isMarked ? "first" : "last");
  if (number !== undefined) return String(Number(candidateValues(number)[0].value.toPrecision(3)));
  return /\b(yes|no)\b/i.exec(answer.text)?.[1]?.toLowerCase();
}
