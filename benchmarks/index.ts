/** Every built-in benchmark, by the name `rllm eval <name>` takes. */
import type { Benchmark } from "../src/core/benchmark.js";
import { qaBenchmark } from "./qa/index.js";

export const benchmarks: ReadonlyMap<string, Benchmark> = new Map([qaBenchmark].map((benchmark) => [benchmark.name, benchmark]));
