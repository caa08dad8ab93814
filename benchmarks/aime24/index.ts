/**
 * AIME 2024 (I and II, 30 problems): HuggingFaceH4/aime_2024, answers graded by the math verifier. Prompt: MathArena's
 * for AIME 2024 (configs/competitions/aime/aime_2024_I.yaml).
 */
import { z } from "zod";
import { defineAnswerBenchmark } from "../suite/define-answer-benchmark.js";
import { hubRowFields, IntegerTextSchema } from "../suite/hub-row-fields.js";
import { matharenaPrompt } from "../suite/matharena-prompt.js";

// Columns of HuggingFaceH4/aime_2024 (its dataset card's dataset_info): id int64, problem, solution, answer, url, year (strings).
const HubRowSchema = z.object({ id: IntegerTextSchema, problem: z.string().min(1), answer: IntegerTextSchema, url: z.string().optional() });

export const aime24Benchmark = defineAnswerBenchmark({
  name: "aime24",
  description: "AIME 2024 I and II: 30 problems, integer answers 0-999, MathArena's prompt, graded by the math verifier (5 bundled problems).",
  bundledSample: "benchmarks/aime24/sample.jsonl",
  // The Hub calls the only split "train"; it is the evaluation set, cached as "test".
  hub: {
    repo: "HuggingFaceH4/aime_2024",
    revision: "2fe88a2f1091d5048c0f36abc874fb997b3dd99a",
    files: { test: ["data/train-*.parquet"] },
    toRow: (row) => {
      const fields = hubRowFields(HubRowSchema, row);
      return { id: `aime24-${fields.id}`, question: fields.problem, ground_truth: String(Number(fields.answer)), url: fields.url, source: "HuggingFaceH4/aime_2024" };
    },
  },
  catalog: { kind: "math", size: "30 problems", licence: "unspecified (AIME problems © MAA)", grader: "math verifier, last \\boxed{} answer" },
  prompt: matharenaPrompt("Please reason step by step, and put your final answer within \\boxed{}.\nThe answer is an integer between 0 and 999 inclusive."),
});
