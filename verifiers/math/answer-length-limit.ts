/**
 * How long an extracted answer the math grader parses (docs/math-verifier.md, "Answer length"). Normalising, parsing
 * and comparing cost more than linear time in an answer's length (a 100,000-digit number took seconds), so a longer
 * answer is not parsed: it scores 0 as `unparseable`, unless it is a ground truth's answer, character for character.
 * Real answers are far shorter (the longest in the bundled suites has 90 characters); the limit grows with a long
 * ground truth, so that a right answer written another way is never cut off by it.
 */
export function answerLengthLimit(groundTruthAnswers: readonly string[]): number {
  return Math.max(minimumAnswerLengthLimit, 2 * Math.max(0, ...groundTruthAnswers.map((answer) => answer.length)));
}

/** The limit for any ground truth: 2,000 characters. */
export const minimumAnswerLengthLimit = 2000;
