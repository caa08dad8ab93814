/** Builds a final-answer benchmark (graded by the math verifier) from its Hub source, sample and standard prompt. */
import { packagePath, readUniqueJsonlRows, type Benchmark, type BenchmarkCatalogEntry, type HubDatasetSource } from "rllm-ts/core";
import { findCachedSplit } from "rllm-ts/datasets";
import { AnswerRowSchema } from "./answer-row.js";

export interface AnswerBenchmarkSpec {
  name: string;
  description: string;
  hub: HubDatasetSource;
  /** The bundled sample, relative to the package root. */
  bundledSample: string;
  catalog: BenchmarkCatalogEntry;
  /** The benchmark's standard prompt around one problem (whose it is is said where it is defined). */
  prompt: (question: string) => string;
}

/** A Benchmark whose tasks are `prompt(question)` with the row as metadata, run by the `prompted-math` cookbook. */
export function defineAnswerBenchmark(spec: AnswerBenchmarkSpec): Benchmark {
  return {
    name: spec.name,
    description: spec.description,
    defaultCookbook: "prompted-math",
    bundledSample: spec.bundledSample,
    hub: spec.hub,
    catalog: spec.catalog,
    async loadTasks(options) {
      const file = options.dataFile ?? findCachedSplit(options.home, spec.name, options.split ?? "test") ?? packagePath(spec.bundledSample);
      return readUniqueJsonlRows(file, AnswerRowSchema).map((row) => ({ id: row.id, instruction: spec.prompt(row.question), metadata: { ...row } }));
    },
  };
}
