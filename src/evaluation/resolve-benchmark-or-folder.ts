/** Finds what `rllm eval` runs: a benchmark or local dataset by name, or a folder of terminal tasks (`<path>` or `harbor:<path>`). */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { Benchmark } from "../core/benchmark.js";
import { InputError } from "../core/errors/input-error.js";
import { hasBenchmark, resolveBenchmark } from "../../benchmarks/resolve-benchmark.js";
import { createTerminalBenchmark } from "../../benchmarks/harbor/index.js";

const harborPrefix = "harbor:";

/** The benchmark `nameOrPath` names; a name wins over a folder of the same name. */
export async function resolveBenchmarkOrFolder(nameOrPath: string, home: string): Promise<Benchmark> {
  if (nameOrPath.startsWith(harborPrefix)) {
    const folder = nameOrPath.slice(harborPrefix.length);
    if (!isFolder(folder)) throw new InputError(`${nameOrPath}: no such folder (harbor: takes a local Harbor task or dataset folder; registry names are not fetched)`);
    return createTerminalBenchmark(path.resolve(folder), folder);
  }
  if (!hasBenchmark(nameOrPath, home) && isFolder(nameOrPath)) return createTerminalBenchmark(path.resolve(nameOrPath), nameOrPath);
  return resolveBenchmark(nameOrPath, home);
}

function isFolder(candidate: string): boolean {
  return existsSync(candidate) && statSync(candidate).isDirectory();
}
