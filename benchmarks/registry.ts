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
  // The suites papers report (docs/benchmarks.md): math, code, multiple choice.
  aime24: { load: async () => (await import("./aime24/index.js")).aime24Benchmark },
  aime25: { load: async () => (await import("./aime25/index.js")).aime25Benchmark },
  hmmt25: { load: async () => (await import("./hmmt25/index.js")).hmmt25Benchmark },
  math500: { load: async () => (await import("./math500/index.js")).math500Benchmark },
  gsm8k: { load: async () => (await import("./gsm8k/index.js")).gsm8kBenchmark },
  humaneval: { load: async () => (await import("./humaneval/index.js")).humanevalBenchmark },
  humanevalplus: { load: async () => (await import("./humanevalplus/index.js")).humanevalplusBenchmark },
  mbppplus: { load: async () => (await import("./mbppplus/index.js")).mbppplusBenchmark },
  livecodebench: { load: async () => (await import("./livecodebench/index.js")).livecodebenchBenchmark },
  "gpqa-diamond": { load: async () => (await import("./gpqa-diamond/index.js")).gpqaDiamondBenchmark },
  "mmlu-pro": { load: async () => (await import("./mmlu-pro/index.js")).mmluProBenchmark },
});
