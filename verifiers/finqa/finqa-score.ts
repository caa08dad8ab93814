/** A FinQA grade as a Score, written once for `rllm eval` and `rllm grade`: the needs-a-judge branch is unscored on both. */
import { scored, unscored, type Score } from "rllm-ts/core";
import { extractFinalAnswer } from "./extract-final-answer.js";
import { finqaReward } from "./finqa-reward.js";
import type { FinqaGrade } from "./grade-finqa-answer.js";

export interface FinqaScoreInput {
  /** The model's reply the grade was made from. */
  reply: string;
  grade: FinqaGrade;
  /** Table-access score in [0, 1]. */
  tableAccess: number;
  /** Weight of the table-access bonus. */
  beta: number;
  /** Other signals to record (turns, toolErrors). */
  signals?: Record<string, number>;
}

/**
 * reward = correctness + β · tableAccess. A "needs-judge" grade (free-text gold answer, and no judge or an
 * unreadable judge reply) is unscored: not a wrong answer and not an infrastructure error.
 */
export function finqaScore(input: FinqaScoreInput): Score {
  const signals = { tableAccess: input.tableAccess, ...input.signals };
  const { grade } = input;
  if (grade.verdict === "needs-judge") {
    return unscored(`unscored: ${grade.reason}`, { answer: grade.extracted ?? extractFinalAnswer(input.reply).text, signals });
  }
  const correctness = grade.verdict === "correct" ? 1 : 0;
  return scored(finqaReward(correctness, input.tableAccess, input.beta), correctness === 1, {
    ...(grade.extracted !== undefined ? { answer: grade.extracted } : {}),
    explanation: grade.reason,
    signals,
  });
}
