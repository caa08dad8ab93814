/**
 * HumanEval+ (164 problems, EvalPlus's extended tests): evalplus/humanevalplus, whose `test` is EvalPlus's own check()
 * over the base and plus inputs (exact match, or numpy allclose for floats; tools/humaneval/to_original_fmt.py).
 * The checker runs that code as is, so it needs numpy in the sandbox's Python (the evalplus cookbook checks).
 */
import { defineCodeBenchmark } from "../suite/define-code-benchmark.js";
import { humanEvalRow } from "../humaneval/index.js";

export const humanevalplusBenchmark = defineCodeBenchmark({
  name: "humanevalplus",
  description: "HumanEval+: HumanEval with EvalPlus's extended tests (80x more), EvalPlus's prompt and check(); needs numpy in the sandbox's Python (5 bundled problems).",
  bundledSample: "benchmarks/humanevalplus/sample.jsonl",
  hub: {
    repo: "evalplus/humanevalplus",
    revision: "aa0d916268b1c17e84e881e9bd460508dd2fd308",
    files: { test: ["data/test-*.parquet"] },
    toRow: (row) => humanEvalRow(row, "evalplus/humanevalplus"),
  },
  catalog: { kind: "code", size: "164 problems", licence: "Apache-2.0", grader: "code verifier, EvalPlus's check() (numpy)" },
});
