/** The `qa` benchmark: short factual questions (a bundled sample of 20), or the user's own `--data` JSONL. */
import { loadQaTasks, packagePath, type Benchmark } from "rllm-ts/core";

const bundledSample = "benchmarks/qa/sample.jsonl";

export const qaBenchmark: Benchmark = {
  name: "qa",
  description: "Question answering graded by exact match; 20 bundled questions, or --data rows {id, question, ground_truth}.",
  defaultCookbook: "qa",
  catalog: { kind: "qa", size: "20 questions", licence: "written here", grader: "exact match" },
  bundledSample,
  async loadTasks(options) {
    return loadQaTasks(options.dataFile ?? packagePath(bundledSample));
  },
};
