/**
 * MMLU-Pro (12,032 test questions, up to 10 options): TIGER-Lab/MMLU-Pro. Prompt: MMLU-Pro's own chain-of-thought
 * prompt (TIGER-AI-Lab/MMLU-Pro: cot_prompt_lib/initial_prompt.txt, format_example in evaluate_from_api.py), zero-shot
 * (its 5 validation examples are not sent); graded by the choice verifier.
 */
import { z } from "zod";
import { defineChoiceBenchmark, optionLetter } from "../suite/define-choice-benchmark.js";
import { hubRowFields, IntegerTextSchema } from "../suite/hub-row-fields.js";

// Columns of TIGER-Lab/MMLU-Pro (its dataset card's dataset_info): question_id int64, question, options list<string>,
// answer (a letter), answer_index int64, cot_content, category, src.
const HubRowSchema = z.object({
  question_id: IntegerTextSchema,
  question: z.string().min(1),
  options: z.array(z.string()).min(2).max(10),
  answer: z.string().regex(/^[A-J]$/),
  category: z.string(),
  src: z.string(),
});

export const mmluProBenchmark = defineChoiceBenchmark({
  name: "mmlu-pro",
  description: "MMLU-Pro: 12,032 questions across 14 subjects with up to 10 options, MMLU-Pro's CoT prompt zero-shot, graded by the choice verifier (5 bundled questions).",
  bundledSample: "benchmarks/mmlu-pro/sample.jsonl",
  hub: {
    repo: "TIGER-Lab/MMLU-Pro",
    revision: "b189ec765aa7ed75c8acfea42df31fdae71f97be",
    files: { test: ["data/test-*.parquet"], validation: ["data/validation-*.parquet"] },
    toRow: (row) => {
      const fields = hubRowFields(HubRowSchema, row);
      return { id: `mmlu-pro-${fields.question_id}`, question: fields.question, choices: fields.options, ground_truth: fields.answer, category: fields.category, src: fields.src, source: "TIGER-Lab/MMLU-Pro" };
    },
  },
  catalog: { kind: "multiple-choice", size: "12,032 test · 70 validation", licence: "MIT", grader: "choice verifier, 'the answer is (X)' letter" },
  prompt: (row) =>
    `The following are multiple choice questions (with answers) about ${String(row.category ?? "")}. Think step by step and then finish your answer with "the answer is (X)" where X is the correct letter choice.\n\n` +
    `Question: ${row.question}\nOptions: ${row.choices.map((choice, index) => `${optionLetter(index)}. ${choice}\n`).join("")}Answer: Let's think step by step.`,
});
