/** HumanEval (164 problems): openai/openai_humaneval, each program run against the problem's own check() by the code verifier. */
import { z } from "zod";
import { checkEntryPoint, defineCodeBenchmark } from "../suite/define-code-benchmark.js";
import { hubRowFields } from "../suite/hub-row-fields.js";

// Columns of openai/openai_humaneval: task_id, prompt, canonical_solution, test, entry_point (all strings).
export const HumanEvalHubRowSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string().min(1),
  canonical_solution: z.string(),
  test: z.string().min(1),
  entry_point: z.string().min(1),
});

/** A HumanEval-format row (also HumanEval+'s) as cached: the check() call on the entry point appended to its test. */
export function humanEvalRow(row: Record<string, unknown>, source: string): Record<string, unknown> {
  const fields = hubRowFields(HumanEvalHubRowSchema, row);
  return {
    id: fields.task_id,
    question: fields.prompt,
    entry_point: fields.entry_point,
    tests: [{ testtype: "assert", code: checkEntryPoint(fields.test, fields.entry_point) }],
    reference_solution: fields.prompt + fields.canonical_solution,
    source,
  };
}

export const humanevalBenchmark = defineCodeBenchmark({
  name: "humaneval",
  description: "HumanEval: 164 Python function completions, EvalPlus's prompt, graded by running the problem's check() in the sandbox (5 bundled problems).",
  bundledSample: "benchmarks/humaneval/sample.jsonl",
  hub: {
    repo: "openai/openai_humaneval",
    revision: "e9b53e1677523f1e61e4d0960fd7502694a24bd4",
    files: { test: ["openai_humaneval/test-*.parquet"] },
    toRow: (row) => humanEvalRow(row, "openai/openai_humaneval"),
  },
  catalog: { kind: "code", size: "164 problems", licence: "MIT", grader: "code verifier, the problem's check()" },
});
