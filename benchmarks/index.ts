/** Every built-in benchmark, by the name `rllm eval <name>` takes. */
import type { Benchmark } from "../src/core/benchmark.js";
import { qaBenchmark } from "./qa/index.js";
import { arithBenchmark } from "./arith/index.js";
import { geo3kBenchmark } from "./geo3k/index.js";
import { mathBenchmark } from "./math/index.js";
import { deepcoderBenchmark } from "./deepcoder/index.js";
import { finqaBenchmark } from "./finqa/index.js";

export const benchmarks: ReadonlyMap<string, Benchmark> = new Map([qaBenchmark, geo3kBenchmark, mathBenchmark, arithBenchmark, deepcoderBenchmark, finqaBenchmark].map((benchmark) => [benchmark.name, benchmark]));
