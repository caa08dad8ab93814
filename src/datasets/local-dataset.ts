/**
 * Local datasets: rows the user registered or curated from runs, kept as <RLLM_HOME>/datasets/<name>/<split>.jsonl
 * with a manifest that says where every row came from. A local dataset is a benchmark name for eval, train and sft.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describeIssues, InputError } from "../core/errors/input-error.js";
import { parseJsonFile } from "../core/parse-json-file.js";
import { datasetDirectory } from "./dataset-cache.js";

/** Where one curated row came from: the run folder, the episode and the trajectory (and, for judge rows, the step). */
export const RowProvenanceSchema = z.object({
  id: z.string(),
  split: z.string(),
  run: z.string(),
  episode: z.string(),
  trajectory: z.string(),
  /** Index of the judge call within the trajectory (judge rows only). */
  step: z.number().int().nonnegative().optional(),
});
export type RowProvenance = z.infer<typeof RowProvenanceSchema>;

/** `manifest.json` of a local dataset. */
export const LocalDatasetManifestSchema = z.object({
  kind: z.enum(["registered", "curated"]),
  name: z.string(),
  createdAt: z.string(),
  /** The benchmark the rows came from (curated) or were registered for; its cookbook runs them in `rllm eval`. */
  benchmark: z.string().optional(),
  /** The exact command that made the dataset, as argv. */
  command: z.array(z.string()),
  splits: z.record(z.string(), z.object({ rows: z.number().int().nonnegative() })),
  /** Registered datasets: the file the rows were read from. */
  sourceFile: z.string().optional(),
  /** Curated datasets: one entry per row. */
  rows: z.array(RowProvenanceSchema).default([]),
  /** Curated datasets: the benchmark splits the source runs evaluated, so that training on test rows can be flagged. */
  sourceSplits: z.array(z.string()).optional(),
  /** Curated datasets: how the rows were chosen (filter, select, counts). */
  curation: z.record(z.string(), z.unknown()).optional(),
});
export type LocalDatasetManifest = z.infer<typeof LocalDatasetManifestSchema>;

/** The manifest of local dataset `name`, or undefined when there is none (a pulled benchmark's cache is not one). */
export function readLocalDataset(home: string, name: string): LocalDatasetManifest | undefined {
  const file = path.join(datasetDirectory(home, name), "manifest.json");
  if (!existsSync(file)) return undefined;
  const raw = parseJsonFile(file);
  if (typeof raw !== "object" || raw === null || !("kind" in raw)) return undefined;
  const parsed = LocalDatasetManifestSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return parsed.data;
}

/** Path of one split's rows. */
export function localSplitPath(home: string, name: string, split: string): string {
  return path.join(datasetDirectory(home, name), `${split}.jsonl`);
}

/**
 * Writes the dataset whole: rows and manifest go to a temporary folder that is renamed over the old one, so an
 * interrupted write never leaves half a dataset.
 */
export function writeLocalDataset(home: string, manifest: LocalDatasetManifest, splits: Record<string, readonly unknown[]>): string {
  const directory = datasetDirectory(home, manifest.name);
  const staging = `${directory}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const [split, rows] of Object.entries(splits)) {
    writeFileSync(path.join(staging, `${split}.jsonl`), rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length > 0 ? "\n" : ""));
  }
  writeFileSync(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  rmSync(directory, { recursive: true, force: true });
  renameSync(staging, directory);
  return directory;
}

/** Deletes local dataset `name`; an InputError when there is none. */
export function removeLocalDataset(home: string, name: string): void {
  if (!readLocalDataset(home, name)) throw new InputError(`no local dataset "${name}" in ${path.join(home, "datasets")}`);
  rmSync(datasetDirectory(home, name), { recursive: true, force: true });
}

/** The names of every local dataset under `home`. */
export function localDatasetNames(home: string): string[] {
  const root = path.join(home, "datasets");
  if (!existsSync(root)) return [];
  return readdirSync(root).filter((name) => readLocalDataset(home, name) !== undefined);
}
