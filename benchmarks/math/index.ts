/** The generic `math` benchmark: `{id, question, ground_truth}` rows (`--data`, or 10 bundled problems) graded by the math verifier. */
import type { Benchmark } from "../../src/core/benchmark.js";
import { loadQaTasks } from "../../src/core/dataset.js";
import { packagePath } from "../../src/core/package-root.js";

const bundledSample = "benchmarks/math/sample.jsonl";

export const mathBenchmark: Benchmark = {
  name: "math",
  description:
    "Math word problems answered with a \\boxed{} value, graded by the math verifier; --data rows {id, question, ground_truth} " +
    "(10 bundled problems otherwise).",
  defaultCookbook: "math",
  bundledSample,
  async loadTasks(options) {
    return loadQaTasks(options.dataFile ?? packagePath(bundledSample));
  },
};
