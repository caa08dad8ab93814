/** The DeepCoder benchmark: competitive-programming problems graded by running the answer against every test. */
import { packagePath, readUniqueJsonlRows, type Benchmark } from "rllm-ts/core";
import { findCachedSplit } from "rllm-ts/datasets";
import { deepcoderHubRow } from "./deepcoder-hub-row.js";
import { DeepcoderRowSchema, deepcoderTask } from "./deepcoder-row.js";

const bundledSample = "benchmarks/deepcoder/sample.jsonl";

export const deepcoderBenchmark: Benchmark = {
  name: "deepcoder",
  description:
    "DeepCoder code problems (stdin/stdout and function-call tests) run in a sandbox; reward 1 only if all tests pass. " +
    "50 bundled HumanEval problems, or `rllm dataset pull deepcoder` (train: primeintellect+taco+lcbv5, test: codeforces+lcbv5).",
  defaultCookbook: "deepcoder",
  catalog: { kind: "code", size: "24K train (4 subsets)", licence: "MIT", grader: "code verifier, every test" },
  bundledSample,
  // Splits as rLLM's prepare_deepcoder_data.py builds them. File names follow the Hub's parquet layout (one shard per
  // subset and split); they could not be checked from an offline machine.
  hub: {
    repo: "agentica-org/DeepCoder-Preview-Dataset",
    files: {
      train: ["primeintellect/train-00000-of-00001.parquet", "taco/train-00000-of-00001.parquet", "lcbv5/train-00000-of-00001.parquet"],
      test: ["codeforces/test-00000-of-00001.parquet", "lcbv5/test-00000-of-00001.parquet"],
    },
    toRow: deepcoderHubRow,
  },
  async loadTasks(options) {
    const file = options.dataFile ?? findCachedSplit(options.home, "deepcoder", options.split ?? "test") ?? packagePath(bundledSample);
    const rows = readUniqueJsonlRows(file, DeepcoderRowSchema);
    return rows.map(deepcoderTask);
  },
};
