/**
 * AIME 2025 (I and II, 30 problems): MathArena/aime_2025, answers graded by the math verifier. Prompt: MathArena's for
 * AIME 2025 (configs/competitions/aime/aime_2025.yaml).
 */
import { z } from "zod";
import { defineAnswerBenchmark } from "../suite/define-answer-benchmark.js";
import { hubRowFields, IntegerTextSchema } from "../suite/hub-row-fields.js";
import { matharenaPrompt } from "../suite/matharena-prompt.js";

// Columns of MathArena/aime_2025, as on MathArena's AIME dataset cards: problem_idx int64, problem string, answer int64.
const HubRowSchema = z.object({ problem_idx: IntegerTextSchema, problem: z.string().min(1), answer: IntegerTextSchema });

export const aime25Benchmark = defineAnswerBenchmark({
  name: "aime25",
  description: "AIME 2025 I and II: 30 problems, integer answers 0-999, MathArena's prompt, graded by the math verifier (5 bundled problems).",
  bundledSample: "benchmarks/aime25/sample.jsonl",
  hub: {
    repo: "MathArena/aime_2025",
    revision: "c94da77eb22bbd6439e62a323bec18493a421302",
    files: { test: ["data/train-*.parquet"] },
    toRow: (row) => {
      const fields = hubRowFields(HubRowSchema, row);
      return { id: `aime25-${fields.problem_idx}`, question: fields.problem, ground_truth: String(Number(fields.answer)), source: "MathArena/aime_2025" };
    },
  },
  catalog: { kind: "math", size: "30 problems", licence: "CC-BY-NC-SA-4.0", grader: "math verifier, last \\boxed{} answer" },
  prompt: matharenaPrompt("Put your final answer within \\boxed{}.\nThe answer is an integer between 0 and 999 inclusive."),
});
