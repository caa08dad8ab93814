/** Every built-in benchmark by the name `rllm eval <name>` takes, loaded on demand so a command imports only what it runs. */
import { createRegistry, type Benchmark } from "rllm-ts/core";

/** The built-in benchmarks, in the order the help lists them. */
export const benchmarks = createRegistry<Benchmark>("benchmark", {
  arith: { load: async () => (await import("./arith/index.js")).arithBenchmark },
  qa: { load: async () => (await import("./qa/index.js")).qaBenchmark },
  math: { load: async () => (await import("./math/index.js")).mathBenchmark },
  geo3k: { load: async () => (await import("./geo3k/index.js")).geo3kBenchmark },
  finqa: { load: async () => (await import("./finqa/index.js")).finqaBenchmark },
  deepcoder: { load: async () => (await import("./deepcoder/index.js")).deepcoderBenchmark },
  "terminal-sample": { load: async () => (await import("./terminal-sample/index.js")).terminalSampleBenchmark },
  frozenlake: { load: async () => (await import("./frozenlake/index.js")).frozenLakeBenchmark },
});
