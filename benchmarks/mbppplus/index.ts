/**
 * MBPP+ (378 problems, EvalPlus's extended tests): evalplus/mbppplus, whose `test` runs the base and plus inputs against
 * the function by name with EvalPlus's assertion (tools/mbpp/to_original_fmt.py). The prompt shows the task and its
 * first test, as EvalPlus's MBPP+ prompt does. The test code needs numpy in the sandbox's Python.
 */
import { z } from "zod";
import { defineCodeBenchmark } from "../suite/define-code-benchmark.js";
import { hubRowFields, IntegerTextSchema } from "../suite/hub-row-fields.js";

// Columns of evalplus/mbppplus (its dataset card's dataset_info): task_id int64, code, prompt, source_file, test_imports
// list<string>, test_list list<string>, test.
const HubRowSchema = z.object({
  task_id: IntegerTextSchema,
  code: z.string().min(1),
  prompt: z.string().min(1),
  test_imports: z.array(z.string()),
  test_list: z.array(z.string()).min(1),
  test: z.string().min(1),
});

/** An MBPP+ row as cached: the docstring prompt with the first example test, the imports and EvalPlus's test code. */
export function mbppPlusRow(row: Record<string, unknown>): Record<string, unknown> {
  const fields = hubRowFields(HubRowSchema, row);
  return {
    id: `Mbpp/${fields.task_id}`,
    question: `"""\n${fields.prompt}\n${fields.test_list[0]}\n"""\n`,
    tests: [{ testtype: "assert", code: `${fields.test_imports.join("\n")}\n${fields.test}` }],
    reference_solution: fields.code,
    source: "evalplus/mbppplus",
  };
}

export const mbppplusBenchmark = defineCodeBenchmark({
  name: "mbppplus",
  description: "MBPP+: 378 Python problems with EvalPlus's extended tests (35x more), EvalPlus's prompt; needs numpy in the sandbox's Python (5 bundled problems).",
  bundledSample: "benchmarks/mbppplus/sample.jsonl",
  hub: { repo: "evalplus/mbppplus", revision: "b2d74c91837c3f2a20c1299ae98133cbe7cfa077", files: { test: ["data/test-*.parquet"] }, toRow: mbppPlusRow },
  catalog: { kind: "code", size: "378 problems", licence: "Apache-2.0", grader: "code verifier, EvalPlus's assertion (numpy)" },
});
