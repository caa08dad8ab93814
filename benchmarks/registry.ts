/** Every built-in benchmark by the name `rllm eval <name>` takes, loaded on demand so a command imports only what it runs. */
import type { Benchmark } from "../src/core/benchmark.js";

const loaders: Record<string, () => Promise<Benchmark>> = {
  arith: async () => (await import("./arith/index.js")).arithBenchmark,
  qa: async () => (await import("./qa/index.js")).qaBenchmark,
  math: async () => (await import("./math/index.js")).mathBenchmark,
  geo3k: async () => (await import("./geo3k/index.js")).geo3kBenchmark,
  finqa: async () => (await import("./finqa/index.js")).finqaBenchmark,
  deepcoder: async () => (await import("./deepcoder/index.js")).deepcoderBenchmark,
};

/** Names of the built-in benchmarks, in the order the help lists them. */
export const benchmarkNames: readonly string[] = Object.keys(loaders);

/** The benchmark called `name`, or undefined when there is none. */
export async function loadBenchmark(name: string): Promise<Benchmark | undefined> {
  return Object.hasOwn(loaders, name) ? loaders[name]!() : undefined;
}

/** Every built-in benchmark (for `rllm dataset list`). */
export async function loadAllBenchmarks(): Promise<Benchmark[]> {
  return Promise.all(benchmarkNames.map((name) => loaders[name]!()));
}
