/**
 * GPQA Diamond (198 graduate-level science questions): Idavidrein/gpqa, gpqa_diamond.csv, a gated dataset (HF_TOKEN).
 * Prompt: simple-evals' QUERY_TEMPLATE_MULTICHOICE (openai/simple-evals, common.py); graded by the choice verifier.
 * No rows are bundled: GPQA's authors ask that its questions not be shown in plain text online.
 */
import { z } from "zod";
import { createRng, randomInt } from "rllm-ts/core";
import { defineChoiceBenchmark, optionLetter } from "../suite/define-choice-benchmark.js";
import { hubRowFields } from "../suite/hub-row-fields.js";

// The columns we read of gpqa_diamond.csv (the CSV has about 40; these names are its header's).
const HubRowSchema = z.object({
  "Record ID": z.string().min(1),
  Question: z.string().min(1),
  "Correct Answer": z.string().min(1),
  "Incorrect Answer 1": z.string().min(1),
  "Incorrect Answer 2": z.string().min(1),
  "Incorrect Answer 3": z.string().min(1),
  "High-level domain": z.string().optional(),
  Subdomain: z.string().optional(),
});

/** FNV-1a of the question: the seed of its option order, so a question's letters are the same on every pull. */
function questionSeed(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  return hash;
}

/**
 * The four answers in a seeded order and the correct one's letter. The CSV lists the correct answer first, so it is
 * shuffled (as simple-evals and rLLM do); the order is ours (seeded by the question), not either's permutation.
 */
export function gpqaRow(row: Record<string, unknown>): Record<string, unknown> {
  const fields = hubRowFields(HubRowSchema, row);
  const answers = [fields["Correct Answer"], fields["Incorrect Answer 1"], fields["Incorrect Answer 2"], fields["Incorrect Answer 3"]].map((text) => text.trim());
  const rng = createRng(questionSeed(fields.Question));
  const order = [0, 1, 2, 3];
  for (let index = order.length - 1; index > 0; index--) {
    const other = randomInt(rng, index + 1);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return {
    id: fields["Record ID"],
    question: fields.Question.trim(),
    choices: order.map((position) => answers[position]!),
    ground_truth: optionLetter(order.indexOf(0)),
    domain: fields["High-level domain"],
    subdomain: fields.Subdomain,
    source: "Idavidrein/gpqa gpqa_diamond.csv",
  };
}

export const gpqaDiamondBenchmark = defineChoiceBenchmark({
  name: "gpqa-diamond",
  description: "GPQA Diamond: 198 graduate-level biology, physics and chemistry questions, 4 options, simple-evals' prompt; gated: HF_TOKEN and `rllm dataset pull gpqa-diamond` (no rows bundled).",
  hub: { repo: "Idavidrein/gpqa", revision: "633f5ee89ab8ad4522a9f850766b73f62147ffdd", gated: true, files: { test: ["gpqa_diamond.csv"] }, toRow: gpqaRow },
  catalog: { kind: "multiple-choice", size: "198 questions", licence: "CC-BY-4.0 (gated; not to be shown in plain text)", grader: "choice verifier, 'Answer: X' letter" },
  // simple-evals' QUERY_TEMPLATE_MULTICHOICE, word for word.
  prompt: (row) =>
    "Answer the following multiple choice question. The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER is one of ABCD. Think step by step before answering.\n\n" +
    `${row.question}\n\n${row.choices.map((choice, index) => `${optionLetter(index)}) ${choice}`).join("\n")}`,
  withoutData:
    "gpqa-diamond ships no rows (GPQA's authors ask that its questions not be shown in plain text online): accept the terms of " +
    "Idavidrein/gpqa on the Hugging Face Hub, set HF_TOKEN and run `rllm dataset pull gpqa-diamond`, or pass --data",
});
