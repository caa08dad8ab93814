/** The `geo3k` benchmark: Geometry3K diagram problems (multimodal), pulled from hiyouga/geometry3k or the bundled 10-problem sample. */
import { InputError, packagePath, readUniqueJsonlRows, type Benchmark, type LoadTasksOptions, type Task } from "rllm-ts/core";
import { findCachedSplit } from "rllm-ts/datasets";
import { geo3kInstruction } from "./geo3k-instruction.js";
import { geo3kHubRow, Geo3kRowSchema } from "./geo3k-row.js";

const bundledSample = "benchmarks/geo3k/sample.jsonl";

/** Tasks from `--data`, else the pulled split, else (test split) the bundled sample; `metadata` keeps the row. */
async function loadGeo3kTasks(options: LoadTasksOptions): Promise<Task[]> {
  const split = options.split ?? "test";
  const file = options.dataFile ?? findCachedSplit(options.home, "geo3k", split) ?? bundledFile(split);
  const rows = readUniqueJsonlRows(file, Geo3kRowSchema);
  return rows.map((row) => {
    const { images, ...rest } = row;
    return { id: row.id, instruction: geo3kInstruction(row.problem, images), metadata: { ...rest, ground_truth: row.answer } };
  });
}

function bundledFile(split: string): string {
  if (split !== "test") throw new InputError(`geo3k: split "${split}" is not pulled; run "rllm dataset pull geo3k" first`);
  return packagePath(bundledSample);
}

export const geo3kBenchmark: Benchmark = {
  name: "geo3k",
  description:
    "Geometry3K: geometry problems with a diagram, answered with a \\boxed{} value and graded by the math verifier; " +
    "10 bundled problems, or hiyouga/geometry3k (2.1K train / 601 test) after `rllm dataset pull geo3k`.",
  defaultCookbook: "geo3k",
  catalog: { kind: "math", size: "2,101 train · 601 test", licence: "MIT", grader: "math verifier, choice letter or value" },
  bundledSample,
  hub: {
    repo: "hiyouga/geometry3k",
    files: {
      train: ["data/train-00000-of-00001.parquet"],
      validation: ["data/validation-00000-of-00001.parquet"],
      test: ["data/test-00000-of-00001.parquet"],
    },
    toRow: geo3kHubRow,
  },
  loadTasks: loadGeo3kTasks,
};
