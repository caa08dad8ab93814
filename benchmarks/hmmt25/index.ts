/**
 * HMMT February 2025 (30 problems): MathArena/hmmt_feb_2025, answers (numbers and expressions) graded by the math
 * verifier. Prompt: MathArena's for HMMT February 2025 (configs/competitions/hmmt/hmmt_feb_2025.yaml).
 */
import { z } from "zod";
import { defineAnswerBenchmark } from "../suite/define-answer-benchmark.js";
import { hubRowFields, IntegerTextSchema } from "../suite/hub-row-fields.js";
import { matharenaPrompt } from "../suite/matharena-prompt.js";

// Columns of MathArena/hmmt_feb_2025: problem_idx int64, problem string, answer string (LaTeX), problem_type list<string>.
const HubRowSchema = z.object({ problem_idx: IntegerTextSchema, problem: z.string().min(1), answer: z.string().min(1), problem_type: z.array(z.string()).nullish() });

export const hmmt25Benchmark = defineAnswerBenchmark({
  name: "hmmt25",
  description: "HMMT February 2025: 30 problems with numeric or LaTeX answers, MathArena's prompt, graded by the math verifier (5 bundled problems).",
  bundledSample: "benchmarks/hmmt25/sample.jsonl",
  hub: {
    repo: "MathArena/hmmt_feb_2025",
    revision: "a7ceac11a0b5b8c18a9b50d41d7ff96311b189c2",
    files: { test: ["data/train-*.parquet"] },
    toRow: (row) => {
      const fields = hubRowFields(HubRowSchema, row);
      return { id: `hmmt25-${fields.problem_idx}`, question: fields.problem, ground_truth: fields.answer, problem_type: fields.problem_type ?? [], source: "MathArena/hmmt_feb_2025" };
    },
  },
  catalog: { kind: "math", size: "30 problems", licence: "CC-BY-NC-SA-4.0", grader: "math verifier, last \\boxed{} answer" },
  prompt: matharenaPrompt("Put your final answer within \\boxed{}."),
});
