/**
 * MATH-500 (the 500-problem test split of "Let's Verify Step by Step"): HuggingFaceH4/MATH-500, graded by the math
 * verifier. Prompt: the instruction DeepSeek-R1's model card recommends for math ("Please reason step by step, and put
 * your final answer within \boxed{}."), placed before the problem as MathArena places its instructions.
 */
import { z } from "zod";
import { defineAnswerBenchmark } from "../suite/define-answer-benchmark.js";
import { hubRowFields } from "../suite/hub-row-fields.js";
import { matharenaPrompt } from "../suite/matharena-prompt.js";

// Keys of HuggingFaceH4/MATH-500's test.jsonl (the file openai/prm800k ships as math_splits/test.jsonl): problem,
// solution, answer, subject, level (int), unique_id.
const HubRowSchema = z.object({
  problem: z.string().min(1),
  solution: z.string(),
  answer: z.string().min(1),
  subject: z.string(),
  level: z.number().int(),
  unique_id: z.string().min(1),
});

export const math500Benchmark = defineAnswerBenchmark({
  name: "math500",
  description: "MATH-500: 500 competition problems across 7 subjects and 5 levels, graded by the math verifier (10 bundled problems).",
  bundledSample: "benchmarks/math500/sample.jsonl",
  hub: {
    repo: "HuggingFaceH4/MATH-500",
    revision: "ff5b20257d8185524591543f8ff5993951537bb8",
    files: { test: ["test.jsonl"] },
    toRow: (row) => {
      const fields = hubRowFields(HubRowSchema, row);
      return { id: fields.unique_id, question: fields.problem, ground_truth: fields.answer, solution: fields.solution, subject: fields.subject, level: fields.level, source: "HuggingFaceH4/MATH-500" };
    },
  },
  catalog: { kind: "math", size: "500 problems", licence: "MIT", grader: "math verifier, last \\boxed{} answer" },
  prompt: matharenaPrompt("Please reason step by step, and put your final answer within \\boxed{}."),
});
