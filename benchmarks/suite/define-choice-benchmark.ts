/** Builds a multiple-choice benchmark (graded by the choice verifier) from its Hub source, sample and standard prompt. */
import { InputError, packagePath, readUniqueJsonlRows, type Benchmark, type BenchmarkCatalogEntry, type HubDatasetSource } from "rllm-ts/core";
import { findCachedSplit } from "rllm-ts/datasets";
import { ChoiceRowSchema, type ChoiceRow } from "./choice-row.js";

export interface ChoiceBenchmarkSpec {
  name: string;
  description: string;
  hub: HubDatasetSource;
  /** The bundled sample, or undefined where the dataset's terms allow none (GPQA). */
  bundledSample?: string;
  catalog: BenchmarkCatalogEntry;
  /** The benchmark's standard prompt for one question (whose it is is said where it is defined). */
  prompt: (row: ChoiceRow) => string;
  /** Said when there is neither a pulled split, nor a sample, nor --data. */
  withoutData?: string;
}

/** A Benchmark whose tasks are `prompt(row)` with the row (choices, correct letter) as metadata, run by the `multiple-choice` cookbook. */
export function defineChoiceBenchmark(spec: ChoiceBenchmarkSpec): Benchmark {
  return {
    name: spec.name,
    description: spec.description,
    defaultCookbook: "multiple-choice",
    ...(spec.bundledSample ? { bundledSample: spec.bundledSample } : {}),
    hub: spec.hub,
    catalog: spec.catalog,
    async loadTasks(options) {
      const file = options.dataFile ?? findCachedSplit(options.home, spec.name, options.split ?? "test") ?? (spec.bundledSample ? packagePath(spec.bundledSample) : undefined);
      if (file === undefined) throw new InputError(spec.withoutData ?? `${spec.name}: no data; run \`rllm dataset pull ${spec.name}\` or pass --data`);
      return readUniqueJsonlRows(file, ChoiceRowSchema).map((row) => ({ id: row.id, instruction: spec.prompt(row), metadata: { ...row } }));
    },
  };
}

/** The letter of option `index` (0 → A). */
export function optionLetter(index: number): string {
  return String.fromCharCode(65 + index);
}
