/** Finds a benchmark by name: a built-in one, else a local dataset (registered or curated under $RLLM_HOME/datasets). */
import { InputError, loadQaTasks, UnknownNameError, type Benchmark } from "rllm-ts/core";
import { findCachedSplit, localDatasetNames, readLocalDataset, type LocalDatasetManifest } from "rllm-ts/datasets";
import { benchmarks } from "./registry.js";

/** Whether `name` is a built-in benchmark or a local dataset under `home`. */
export function hasBenchmark(name: string, home: string): boolean {
  return benchmarks.has(name) || readLocalDataset(home, name) !== undefined;
}

/** The benchmark called `name`; an UnknownNameError listing built-in and local names for any other. */
export async function resolveBenchmark(name: string, home: string): Promise<Benchmark> {
  if (benchmarks.has(name)) return benchmarks.load(name);
  const manifest = readLocalDataset(home, name);
  if (!manifest) throw new UnknownNameError("benchmark", name, [...benchmarks.names(), ...localDatasetNames(home)]);
  return localBenchmark(manifest, home);
}

/** A local dataset as a benchmark: its splits' rows are `{id, question, ground_truth}` tasks run by the source benchmark's cookbook. */
function localBenchmark(manifest: LocalDatasetManifest, home: string): Benchmark {
  const splits = Object.keys(manifest.splits);
  return {
    name: manifest.name,
    description: `${manifest.kind} dataset (${splits.map((split) => `${split} ${manifest.splits[split]!.rows}`).join(", ")})`,
    defaultCookbook: manifest.benchmark && benchmarks.has(manifest.benchmark) ? manifest.benchmark : "qa",
    async loadTasks(options) {
      if (options.dataFile) return loadQaTasks(options.dataFile);
      // Commands ask for "test" by default; a local dataset without one serves its first split (curated data: "train").
      const asked = options.split ?? "test";
      const split = !splits.includes(asked) && asked === "test" ? splits[0]! : asked;
      const file = findCachedSplit(home, manifest.name, split);
      if (!file) throw new InputError(`dataset ${manifest.name}: no split "${asked}" (it has ${splits.join(", ")})`);
      return loadQaTasks(file);
    },
  };
}
