/**
 * Scores a FinQA episode: deterministic grading of the final number (an LLM judge only for free-text
 * gold answers, when one is given), plus the table-access bonus: reward = correctness + β · tableAccess.
 */
import { z } from "zod";
import { describeIssues, episodeAnswer, InputError, type Evaluator, type LlmClient } from "rllm-ts/core";
import { defaultTableAccessBeta, extractFinalAnswer, finqaScore, gradeFinqaAnswer, tableAccess, type FinqaGrade } from "rllm-ts/verifiers/finqa";
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

/** Builds the evaluator; signals: tableAccess, turns, toolErrors. Free-text gold answers are unscored unless the judge reads them. */
export function createFinqaEvaluator(options: FinqaEvaluatorOptions = {}): Evaluator {
  const beta = options.beta ?? defaultTableAccessBeta;
  return async (task, episode) => {
    const fields = TaskFieldsSchema.safeParse(task.metadata);
    if (!fields.success) throw new InputError(describeIssues(`task ${task.id} metadata`, undefined, fields.error));
    const artifacts = ArtifactsSchema.parse(episode.artifacts);
    const reply = episodeAnswer(episode);
    let grade = gradeFinqaAnswer(reply, fields.data.ground_truth);
    if (grade.verdict === "needs-judge" && options.judge) {
      grade = await judgeGrade(options.judge, reply, fields.data.question, String(fields.data.ground_truth));
    }
    return finqaScore({
      reply,
      grade,
      tableAccess: tableAccess(fields.data.expected_tables, artifacts.accessedTables),
      beta,
      signals: { turns: artifacts.turns, toolErrors: artifacts.toolErrors },
    });
  };
}

/** The judge's verdict as a FinQA grade; an unreadable judge reply leaves it "needs-judge". */
async function judgeGrade(judge: LlmClient, reply: string, question: string, groundTruth: string): Promise<FinqaGrade> {
  const block = extractFinalAnswer(reply);
  // As rLLM's single-table judge: the FINAL ANSWER block, else the whole reply.
  const verdict = await judgeAnswer(judge, { question, answer: block.isMarked ? block.text : reply, groundTruth });
  if (verdict.isCorrect === undefined) return { verdict: "needs-judge", extracted: block.text, reason: verdict.reason };
  return { verdict: verdict.isCorrect ? "correct" : "incorrect", extracted: block.text, reason: verdict.reason };
}
