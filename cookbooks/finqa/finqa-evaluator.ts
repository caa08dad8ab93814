/**
 * Scores a FinQA episode: deterministic grading of the final number (an LLM judge only for free-text
 * gold answers, when one is given), plus the table-access bonus: reward = correctness + β · tableAccess.
 */
import { z } from "zod";
import type { Evaluator } from "../../src/core/cookbook.js";
import type { EvalOutputInput } from "../../src/core/eval-output.js";
import { describeIssues, InputError } from "../../src/core/errors/input-error.js";
import type { LlmClient } from "../../src/core/llm-client.js";
import { extractFinalAnswer } from "../../verifiers/finqa/extract-final-answer.js";
import { gradeFinqaAnswer } from "../../verifiers/finqa/grade-finqa-answer.js";
import { defaultTableAccessBeta, finqaReward } from "../../verifiers/finqa/finqa-reward.js";
import { tableAccess } from "../../verifiers/finqa/table-access.js";
import { finalReply } from "./final-reply.js";
import { judgeAnswer } from "./judge-answer.js";

export interface FinqaEvaluatorOptions {
  /** Weight of the table-access bonus (default 0.1; 0 reproduces rLLM's code, which only logs it). */
  beta?: number;
  /** LLM judge for gold answers that are free text; without one they stay unscored. */
  judge?: LlmClient;
}

const TaskFieldsSchema = z.object({
  ground_truth: z.union([z.string(), z.number()]),
  question: z.string().default(""),
  expected_tables: z.array(z.string()).default([]),
});
const ArtifactsSchema = z.object({
  accessedTables: z.array(z.string()).default([]),
  turns: z.number().default(0),
  toolErrors: z.number().default(0),
});

/** Builds the evaluator; signals: tableAccess, turns, toolErrors, unscored (1 when nothing could grade the answer). */
export function createFinqaEvaluator(options: FinqaEvaluatorOptions = {}): Evaluator {
  const beta = options.beta ?? defaultTableAccessBeta;
  return async (task, episode): Promise<EvalOutputInput> => {
    const fields = TaskFieldsSchema.safeParse(task.metadata);
    if (!fields.success) throw new InputError(describeIssues(`task ${task.id} metadata`, undefined, fields.error));
    const artifacts = ArtifactsSchema.parse(episode.artifacts);
    const access = tableAccess(fields.data.expected_tables, artifacts.accessedTables);
    const signals = { tableAccess: access, turns: artifacts.turns, toolErrors: artifacts.toolErrors, unscored: 0 };
    const reply = finalReply(episode);
    const grade = gradeFinqaAnswer(reply, fields.data.ground_truth);
    if (grade.verdict !== "needs-judge") {
      const correctness = grade.verdict === "correct" ? 1 : 0;
      return { reward: finqaReward(correctness, access, beta), isCorrect: correctness === 1, signals, answer: grade.extracted, explanation: grade.reason };
    }
    const block = extractFinalAnswer(reply);
    if (options.judge) {
      const verdict = await judgeAnswer(options.judge, {
        question: fields.data.question,
        // As rLLM's single-table judge: the FINAL ANSWER block, else the whole reply.
        answer: block.isMarked ? block.text : reply,
        groundTruth: String(fields.data.ground_truth),
      });
      if (verdict.isCorrect !== undefined) {
        const correctness = verdict.isCorrect ? 1 : 0;
        return { reward: finqaReward(correctness, access, beta), isCorrect: verdict.isCorrect, signals, answer: block.text, explanation: verdict.reason };
      }
      return { reward: 0, isCorrect: false, signals: { ...signals, unscored: 1 }, answer: block.text, explanation: `unscored: ${verdict.reason}` };
    }
    return {
      reward: 0,
      isCorrect: false,
      signals: { ...signals, unscored: 1 },
      answer: block.text,
      explanation: `unscored: ${grade.reason}; pass --judge-model to grade it`,
    };
  };
}
