/**
 * The deterministic FinQA grader: the reply's final number against the gold execution answer,
 * percent and fraction as one quantity, with the rounding an analyst would use; yes/no for comparisons.
 */
import { extractFinalAnswer } from "./extract-final-answer.js";
import { candidateValues, parseFinancialNumbers, pickAnswerNumber, type CandidateValue } from "./financial-number.js";

/** "needs-judge": the gold answer is free text (no single number, not yes/no); only an LLM judge can grade it. */
export type FinqaVerdict = "correct" | "incorrect" | "needs-judge";

export interface FinqaGrade {
  verdict: FinqaVerdict;
  /** What was taken from the reply (the number as written, or yes/no). */
  extracted?: string;
  reason: string;
}

/**
 * Any reading within 0.2% of the gold value is correct: that absorbs rounding to three or four
 * significant digits and intermediate rounding (3,300 for 3,297.67; 9.87% for 9.864%).
 */
export const relativeTolerance = 0.002;

/**
 * Coarser answers are also correct when they equal the gold value rounded to the answer's own
 * precision (14% or 14.5% for 0.14464, "$3.9 million" for 3,876,875), but never beyond 5%, so a
 * bare "0" or "1" cannot match 0.4.
 */
export const roundingCeiling = 0.05;

/** FinQA's exe_ans values are rounded to 5 decimals (code/evaluate/evaluate.py), so they carry ±0.000005. */
const goldNumberHalfUnit = 0.5e-5;

// A decrease stated in words ("a decrease of 10%"), in the reply or the gold, leaves the sign to the question's phrasing.
const directionPattern = /\b(decrease[ds]?|declin(?:e|ed|es|ing)|drop(?:ped|s)?|fell|fall(?:s|en)?|lower|reduc(?:ed|es|tion)|down|negative)\b/i;
const yesNoPattern = /\b(yes|no)\b/gi;

/** Grades one reply against a FinQA gold answer: a number, "yes"/"no", or a gold string. */
export function gradeFinqaAnswer(reply: string, groundTruth: string | number): FinqaGrade {
  const answer = extractFinalAnswer(reply);
  const gold = goldCandidates(groundTruth);
  if (gold.kind === "yes-no") {
    // Like numbers: the first word of a marked answer, the last of an unmarked reply.
    const words = [...answer.text.matchAll(yesNoPattern)].map((match) => match[1]!.toLowerCase()); // yesNoPattern's group is not optional
    const word = answer.isMarked ? words[0] : words.at(-1);
    if (word === undefined) return { verdict: "incorrect", reason: "no yes/no in the answer" };
    return word === gold.word
      ? { verdict: "correct", extracted: word, reason: `answered ${word} as expected` }
      : { verdict: "incorrect", extracted: word, reason: `answered ${word}, expected ${gold.word}` };
  }
  if (gold.kind === "free-text") {
    return { verdict: "needs-judge", reason: "the gold answer is free text, not one number or yes/no" };
  }
  const number = pickAnswerNumber(parseFinancialNumbers(answer.text), answer.isMarked ? "first" : "last");
  if (number === undefined) return { verdict: "incorrect", reason: "no number in the answer" };
  const readings = candidateValues(number);
  // Either side may state the direction in words ("decrease of 10%" against "-10%"), as rLLM's judge prompt allows.
  const isDirectionInWords = directionPattern.test(answer.text) || (typeof groundTruth === "string" && directionPattern.test(groundTruth));
  if (isDirectionInWords) readings.push(...readings.map((reading) => ({ ...reading, value: -reading.value })));
  const match = readings.find((reading) => gold.candidates.some((candidate) => isClose(reading, candidate)));
  return match
    ? { verdict: "correct", extracted: number.text, reason: `${number.text} matches ${String(groundTruth)}` }
    : { verdict: "incorrect", extracted: number.text, reason: `${number.text} does not match ${String(groundTruth)}` };
}

type GoldReading =
  | { kind: "number"; candidates: CandidateValue[] }
  | { kind: "yes-no"; word: "yes" | "no" }
  | { kind: "free-text" };

/** A JSON number is exact to 5 decimals; a gold string counts as numeric when it holds one number (years aside). */
function goldCandidates(groundTruth: string | number): GoldReading {
  if (typeof groundTruth === "number") {
    return { kind: "number", candidates: [{ value: groundTruth, halfUnit: goldNumberHalfUnit, isPrimary: true }] };
  }
  const text = groundTruth.trim();
  const lower = text.toLowerCase().replace(/[.!]$/, "");
  if (lower === "yes" || lower === "no") return { kind: "yes-no", word: lower };
  if (/^[-+]?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text)) {
    return { kind: "number", candidates: [{ value: Number(text), halfUnit: goldNumberHalfUnit, isPrimary: true }] };
  }
  const numbers = parseFinancialNumbers(text);
  const meaningful = numbers.filter((number) => !number.isYearLike);
  const only = meaningful.length === 1 ? meaningful[0] : numbers.length === 1 ? numbers[0] : undefined;
  if (only === undefined) return { kind: "free-text" };
  return { kind: "number", candidates: candidateValues(only) };
}

/** Strict relative match for any reading; the rounding rule only for the natural readings of both sides. */
function isClose(answer: CandidateValue, gold: CandidateValue): boolean {
  const difference = Math.abs(answer.value - gold.value);
  const magnitude = Math.abs(gold.value);
  if (difference <= relativeTolerance * magnitude || difference === 0) return true;
  if (!answer.isPrimary || !gold.isPrimary) return false;
  return difference <= answer.halfUnit + gold.halfUnit && difference <= roundingCeiling * magnitude + gold.halfUnit;
}
