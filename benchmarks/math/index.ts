/** The generic `math` benchmark: `{id, question, ground_truth}` rows (`--data`, or 10 bundled problems) graded by the math verifier. */
import { loadQaTasks, packagePath, type Benchmark } from "rllm-ts/core";

const bundledSample = "benchmarks/math/sample.jsonl";

export const mathBenchmark: Benchmark = {
  name: "math",
  description:
    "Math word problems answered with a \\boxed{} value, graded by the math verifier; --data rows {id, question, ground_truth} " +
    "(10 bundled problems otherwise).",
  defaultCookbook: "math",
  catalog: { kind: "math", size: "your rows (10 bundled)", licence: "written here", grader: "math verifier, last \\boxed{} answer" },
  bundledSample,
  async loadTasks(options) {
    return loadQaTasks(options.dataFile ?? packagePath(bundledSample));
  },
};
