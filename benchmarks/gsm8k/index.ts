/**
 * GSM8K (grade-school word problems): openai/gsm8k, config main. Prompt: lm-eval's gsm8k_cot_llama instruction
 * (lm_eval/tasks/gsm8k/gsm8k-cot-llama.yaml), zero-shot (the task's 8 worked examples are not sent); the answer is the
 * number after "The final answer is", graded by the math verifier.
 */
import { z } from "zod";
import { defineAnswerBenchmark } from "../suite/define-answer-benchmark.js";
import { hubRowFields } from "../suite/hub-row-fields.js";

// Columns of openai/gsm8k (config main): question, answer (the worked solution, ending "#### <number>").
const HubRowSchema = z.object({ question: z.string().min(1), answer: z.string().regex(/####/, 'a solution ending "#### <answer>"') });

export const gsm8kBenchmark = defineAnswerBenchmark({
  name: "gsm8k",
  description: "GSM8K: grade-school math word problems (1,319 test, 7,473 train), lm-eval's Llama CoT prompt, graded by the math verifier (5 bundled problems).",
  bundledSample: "benchmarks/gsm8k/sample.jsonl",
  hub: {
    repo: "openai/gsm8k",
    revision: "e53f048856ff4f594e959d75785d2c2d37b678ee",
    files: { test: ["main/test-00000-of-00001.parquet"], train: ["main/train-00000-of-00001.parquet"] },
    toRow: (row, index, split) => {
      const fields = hubRowFields(HubRowSchema, row);
      // The reference answer is the text after the last "####", as GSM8K's own grader and rLLM's gsm8k_transform read it.
      return { id: `gsm8k-${split}-${index}`, question: fields.question, ground_truth: fields.answer.split("####").at(-1)!.trim(), solution: fields.answer, source: "openai/gsm8k" };
    },
  },
  catalog: { kind: "math", size: "1,319 test · 7,473 train", licence: "MIT", grader: "math verifier, 'The final answer is' number" },
  prompt: (question) =>
    `Given the following problem, reason and give a final answer to the problem.\nProblem: ${question}\nYour response should end with "The final answer is [answer]" where [answer] is the response to the problem.`,
});
