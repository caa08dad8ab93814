/**
 * Synchronous in-process math grading under a policy already validated: extract, normalise, parse, compare. It loads
 * no zod, so that a grading worker thread starts without it; gradeMath (grade-math.ts) is the validating entry.
 */
import { answerLengthLimit, minimumAnswerLengthLimit } from "./answer-length-limit.js";
import { compareValues } from "./compare-answers.js";
import type { Comparison } from "./compare-expressions.js";
import { extractAnswer, type ExtractedAnswer } from "./extract-answer.js";
import type { MathPolicy } from "./math-policy.js";
import { normalizeAnswer, type NormalizedAnswer } from "./normalize-answer.js";
import { dollarUnit, type PhysicalUnit } from "./physical-unit.js";
import { parseAnswer, type MathValue } from "./parse-answer.js";

/** The verdict for one (response, ground truth) pair. */
export interface MathVerdict {
  correct: boolean;
  reward: number;
  /** The answer taken from the response, before normalisation. */
  extracted?: string;
  reason: string;
}

/** A ground truth: one answer, or several accepted answers. */
export type MathGroundTruth = string | number | ReadonlyArray<string | number>;

interface ParsedAnswer {
  normalized: NormalizedAnswer;
  value: MathValue;
}

/** A ground truth's extracted answer, and that answer parsed. */
interface GroundTruthAnswer {
  answer: string;
  parsed: ParsedAnswer;
}

// Parsed ground truths, reused across rows and samples of the same problem; cleared wholesale when full.
const groundTruthCache = new Map<string, GroundTruthAnswer | null>();
const groundTruthCacheLimit = 2048;

/**
 * Grades `response` against `groundTruth` under a complete, validated `policy`; `choices` (Geo3K) lets a choice letter
 * match the choice's value. An answer that makes the grader throw is a scored 0 explained `unparseable: …`: the input
 * caused it, so it is never an infrastructure error (docs/math-verifier.md, "Grader failures").
 */
export function gradeMathUnderPolicy(
  response: string,
  groundTruth: MathGroundTruth,
  resolvedPolicy: MathPolicy,
  choices?: readonly string[],
): MathVerdict {
  try {
    return gradeChecked(response, groundTruth, resolvedPolicy, choices);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { correct: false, reward: 0, reason: `unparseable: the grader failed on this answer (${message})` };
  }
}

function gradeChecked(
  response: string,
  groundTruth: MathGroundTruth,
  resolvedPolicy: MathPolicy,
  choices: readonly string[] | undefined,
): MathVerdict {
  const truths = (Array.isArray(groundTruth) ? groundTruth : [groundTruth]) as Array<string | number>;
  // A response identical to a ground truth is right whatever it holds (a long bare answer, an unbalanced `$`),
  // unless only boxed answers count.
  const isIdentical = (truth: string | number) => squash(String(truth)) !== "" && squash(String(truth)) === squash(response);
  if (resolvedPolicy.allowUnboxedFallback && truths.some(isIdentical)) {
    return { correct: true, reward: 1, extracted: response.trim(), reason: "whole: identical to the ground truth" };
  }
  const extracted = extractAnswer(response, { allowUnboxedFallback: resolvedPolicy.allowUnboxedFallback });
  if (!extracted) return { correct: false, reward: 0, reason: "no answer found in the response" };
  if (extracted.text.length > minimumAnswerLengthLimit) {
    const verdict = gradeLongAnswer(extracted, truths);
    if (verdict) return verdict;
  }
  const last = memoizedComparison(extracted.text, truths, resolvedPolicy, choices);
  return {
    correct: last.equal,
    reward: last.equal ? 1 : 0,
    extracted: extracted.text,
    reason: `${extracted.source}: ${last.reason}`,
  };
}

/**
 * An answer longer than the grader parses (answer-length-limit.ts) is a scored 0 (`unparseable`) unless it is a ground
 * truth's answer, whitespace aside; undefined when it is within the limit and is graded as usual. Nothing here costs
 * more than linear time in the answer's length.
 */
function gradeLongAnswer(extracted: ExtractedAnswer, truths: ReadonlyArray<string | number>): MathVerdict | undefined {
  const truthAnswers = truths.flatMap((truth) => groundTruthAnswer(String(truth))?.answer ?? []);
  const limit = answerLengthLimit(truthAnswers);
  if (extracted.text.length <= limit) return undefined;
  const answer = squash(extracted.text);
  if (truthAnswers.some((truthAnswer) => squash(truthAnswer) === answer)) {
    return { correct: true, reward: 1, extracted: extracted.text, reason: `${extracted.source}: same text as the ground truth's answer` };
  }
  const length = extracted.text.length.toLocaleString("en");
  return {
    correct: false,
    reward: 0,
    reason: `unparseable: an answer of ${length} characters, longer than the ${limit.toLocaleString("en")} the grader parses`,
  };
}

/** The answer against each ground truth in turn, until one matches; the last comparison when none does. */
function compareWithTruths(
  answer: string,
  truths: ReadonlyArray<string | number>,
  resolvedPolicy: MathPolicy,
  choices: readonly string[] | undefined,
): Comparison {
  const predicted = parseSide(answer);
  let last: Comparison = { equal: false, reason: "empty ground truth" };
  for (const truthText of truths) {
    const truth = groundTruthAnswer(String(truthText))?.parsed;
    if (!truth) continue;
    last = compareParsed(truth, predicted, resolvedPolicy, choices);
    if (last.equal) break;
  }
  return last;
}

/**
 * The comparison's outcome for an answer already graded against the same ground truths, policy and choices: it is a
 * function of those alone (the sample points are fixed), so a repeat is served without normalising, parsing or
 * evaluating again. The samples of one problem often end in the same answer (`\boxed{42}` under different working),
 * and the pool sends every job of a ground truth to the same thread (math-job-lanes.ts), so repeats meet here.
 */
function memoizedComparison(
  answer: string,
  truths: ReadonlyArray<string | number>,
  policy: MathPolicy,
  choices: readonly string[] | undefined,
): Comparison {
  const key = JSON.stringify([answer, truths.map(String), policyKey(policy), choices ?? null]);
  const known = comparisonCache.get(key);
  if (known) return known;
  const comparison = compareWithTruths(answer, truths, policy, choices);
  // A long answer is rarely repeated and would hold its text twice: it is not kept.
  if (key.length <= comparisonKeyLimit) {
    if (comparisonCache.size >= comparisonCacheLimit) comparisonCache.clear();
    comparisonCache.set(key, comparison);
  }
  return comparison;
}

// Comparisons by answer, ground truths, policy and choices; cleared wholesale when full.
const comparisonCache = new Map<string, Comparison>();
const comparisonCacheLimit = 4096;
const comparisonKeyLimit = 2048;
// A policy's key by the object: a batch passes one policy object for its jobs (a grading thread gets a copy per job).
const policyKeys = new WeakMap<MathPolicy, string>();

function policyKey(policy: MathPolicy): string {
  let key = policyKeys.get(policy);
  if (key === undefined) {
    key = JSON.stringify(policy);
    policyKeys.set(policy, key);
  }
  return key;
}

function groundTruthAnswer(text: string): GroundTruthAnswer | undefined {
  const cached = groundTruthCache.get(text);
  if (cached !== undefined) return cached ?? undefined;
  const extracted = extractAnswer(text, { isGroundTruth: true });
  const answer = extracted ? { answer: extracted.text, parsed: parseSide(extracted.text) } : null;
  if (groundTruthCache.size >= groundTruthCacheLimit) groundTruthCache.clear();
  groundTruthCache.set(text, answer);
  return answer ?? undefined;
}

function parseSide(text: string): ParsedAnswer {
  const normalized = normalizeAnswer(text);
  return { normalized, value: parseAnswer(normalized.text) };
}

/** Fast path on normalised strings, then choices, then structure; percent and degree variants per policy. */
function compareParsed(
  truth: ParsedAnswer,
  predicted: ParsedAnswer,
  policy: MathPolicy,
  choices: readonly string[] | undefined,
): Comparison {
  const truthNorm = truth.normalized;
  const predictedNorm = predicted.normalized;
  if (truthNorm.base !== undefined && predictedNorm.base !== undefined && truthNorm.base !== predictedNorm.base) {
    return { equal: false, reason: "different number bases" };
  }
  // A dollar sign is the unit dollar against an amount of money on the other side (`\$4` is not `4 cents`).
  const asDollars = (side: NormalizedAnswer, other: NormalizedAnswer) =>
    side.unit ?? (side.dollars && other.unit?.dimension === dollarUnit.dimension ? dollarUnit : undefined);
  const truthUnit = asDollars(truthNorm, predictedNorm);
  const predictedUnit = asDollars(predictedNorm, truthNorm);
  if (truthUnit && predictedUnit && truthUnit.name !== predictedUnit.name) {
    return compareConvertedUnits(truth, predicted, truthUnit, predictedUnit, policy);
  }
  // A unit on both sides that the table does not know is compared by its words: `4 cents` is not `4 dollars`.
  const [truthWords, predictedWords] = [truthNorm.unitWords, predictedNorm.unitWords];
  if (truthWords && predictedWords && !(truthUnit && predictedUnit) && truthWords !== predictedWords) {
    return { equal: false, reason: `different units (${predictedWords} against ${truthWords})` };
  }
  const percentDiffers = truthNorm.percent !== predictedNorm.percent;
  const direct = !percentDiffers || policy.percentMatchesNumber;
  if (direct && squash(truthNorm.text) === squash(predictedNorm.text) && truthNorm.text !== "") {
    return { equal: true, reason: "same normalised answer" };
  }
  const [truthValue, predictedValue] = resolveChoices(
    decimalCommaVariant(predicted.value, truth, true).value,
    decimalCommaVariant(truth.value, predicted, false),
    policy,
    choices,
  );
  if (direct) {
    const result = compareValues(truthValue, predictedValue, policy);
    const hasVariants = percentDiffers || degreeVariantApplies(truthNorm, predictedNorm, policy);
    if (result.equal || !hasVariants) return result;
  }
  if (percentDiffers && policy.percentMatchesFraction) {
    const [scaledTruth, scaledPredicted] = truthNorm.percent
      ? [scale(truthValue, "/100"), predictedValue]
      : [truthValue, scale(predictedValue, "/100")];
    const result = compareValues(scaledTruth, scaledPredicted, policy);
    if (result.equal) return { equal: true, reason: `${result.reason} (percent as a fraction)` };
  }
  if (degreeVariantApplies(truthNorm, predictedNorm, policy)) {
    const [degreeTruth, degreePredicted] = truthNorm.degrees
      ? [scale(truthValue, "*pi/180"), predictedValue]
      : [truthValue, scale(predictedValue, "*pi/180")];
    const result = compareValues(degreeTruth, degreePredicted, policy);
    if (result.equal) return { equal: true, reason: `${result.reason} (degrees as radians)` };
  }
  return { equal: false, reason: percentDiffers ? "different values (percent)" : "different values" };
}

/**
 * Both sides name a unit, and not the same one: `4 km` against `4000 m` converts the response's value into the ground
 * truth's unit; units of different dimensions (`4 km`, `4 kg`) never match.
 */
function compareConvertedUnits(
  truth: ParsedAnswer,
  predicted: ParsedAnswer,
  truthUnit: PhysicalUnit,
  predictedUnit: PhysicalUnit,
  policy: MathPolicy,
): Comparison {
  const units = `${predictedUnit.name} against ${truthUnit.name}`;
  if (truthUnit.dimension !== predictedUnit.dimension || predicted.value.kind !== "expression") {
    return { equal: false, reason: `different units (${units})` };
  }
  const converted = scale(predicted.value, `*(${predictedUnit.factor})/(${truthUnit.factor})`);
  const result = compareValues(truth.value, converted, policy);
  return { equal: result.equal, reason: `${result.equal ? result.reason : "different values"} (${units}, converted)` };
}

function degreeVariantApplies(truth: NormalizedAnswer, predicted: NormalizedAnswer, policy: MathPolicy): boolean {
  return policy.degreesMatchRadians && truth.degrees !== predicted.degrees;
}

/** Geo3K choices: a response letter (`B`, `(B)`, `B) 13`) against a letter, or a letter against a value. */
function resolveChoices(
  truth: MathValue,
  predicted: ParsedAnswer,
  policy: MathPolicy,
  choices: readonly string[] | undefined,
): [MathValue, MathValue] {
  // `B`, `(B)`, `B)`, `B. 13`, `B: 13`, `(B) 13`; not `B + C` or `B = 5`.
  const letter = /^(?:\(([A-E])\)(?:\s.*)?|([A-E])(?:[.:)](?:\s.*)?)?)$/.exec(predicted.normalized.text.trim());
  const chosen = letter?.[1] ?? letter?.[2];
  let predictedValue = predicted.value;
  if (truth.kind === "choice" && chosen !== undefined) predictedValue = { kind: "choice", letter: chosen };
  if (!choices || !policy.choiceLetterMatchesValue) return [truth, predictedValue];
  const choiceValue = (choiceLetter: string): MathValue | undefined => {
    const text = choices["ABCDE".indexOf(choiceLetter)];
    return text === undefined ? undefined : parseAnswer(normalizeAnswer(text).text);
  };
  if (truth.kind === "choice" && predictedValue.kind !== "choice") {
    return [choiceValue(truth.letter) ?? truth, predictedValue];
  }
  if (truth.kind !== "choice" && predictedValue.kind === "choice") {
    return [truth, choiceValue(predictedValue.letter) ?? predictedValue];
  }
  return [truth, predictedValue];
}

/**
 * A response `3,5` against a single number reads as the decimal 3.5 (a 3-digit group is a thousands separator). A
 * ground truth `3,5` stays the list 3, 5; only `0,111` (whole part 0, on either side) is always a decimal comma.
 */
function decimalCommaVariant(other: MathValue, answer: ParsedAnswer, isGroundTruth: boolean): ParsedAnswer {
  const pattern = isGroundTruth ? /^[-+]?0,\d+$/ : /^[-+]?\d+,(?:\d{1,2}|\d{4,})$|^[-+]?0,\d+$/;
  const isDecimalComma = pattern.test(answer.normalized.text);
  if (other.kind !== "expression" || !isDecimalComma) return answer;
  const text = answer.normalized.text.replace(",", ".");
  return { normalized: { ...answer.normalized, text }, value: parseAnswer(text) };
}

/** `value` times a constant factor (`/100`, `*pi/180`) when it is an expression; other shapes are left as they are. */
function scale(value: MathValue, factor: string): MathValue {
  if (value.kind !== "expression") return value;
  return { kind: "expression", text: `(${value.text})${factor}`, expression: `(${value.expression})${factor}` };
}

function squash(text: string): string {
  return text.replace(/\s+/g, "");
}
