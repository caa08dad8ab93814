/**
 * The math verifier's pool: grading threads under a hard time limit per check, opened once per run by the run's
 * services (one thread starts and warms up as the run starts) and closed when the run ends.
 */
import type { PoolDefinition } from "rllm-ts/core";
import { defaultMathTimeoutMs } from "./grade-math-batch.js";
import { MathWorkerPool } from "./math-worker-pool.js";

/** The pool whose checks stop after `timeoutMs`; `mathPool` is the default one. */
export function mathGradingPool(timeoutMs = defaultMathTimeoutMs): PoolDefinition<MathWorkerPool> {
  return {
    name: "math",
    async open({ concurrency }) {
      const pool = new MathWorkerPool({ ...(concurrency !== undefined ? { size: concurrency } : {}), timeoutMs });
      pool.warm();
      return pool;
    },
    close: (pool) => pool.close(),
    describe: (pool) => ({ threads: pool.size, timeoutMs: pool.timeoutMs }),
  };
}

/** Grading threads (all cores) with the default time limit per check: what math cookbooks declare and ask their run for. */
export const mathPool = mathGradingPool();
