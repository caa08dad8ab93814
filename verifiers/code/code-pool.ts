/**
 * The code verifier's pool definition: the run's program slots (local) or hosts (remote), opened by the run's services
 * (code-grading-pool.ts). This module loads nothing of the grader until the pool opens, so a command can name the pool
 * before it loads the verifier.
 */
import type { PoolDefinition, ProgramSandboxOptions } from "rllm-ts/core";
import type { CodeGradingPool } from "./code-grading-pool.js";

/** The pool for programs under `limits` (default: SandboxLimitsSchema's); `codePool` is the default one. */
export function codeGradingPool(limits?: ProgramSandboxOptions["limits"]): PoolDefinition<CodeGradingPool> {
  return {
    name: "code",
    async open({ sandbox, concurrency }) {
      const options = { ...(concurrency !== undefined ? { concurrency } : {}), ...(limits ? { limits } : {}) };
      // The programs start opening (the interpreter asked, the slots started) while the grader's modules load.
      const [programs, grading] = await Promise.allSettled([sandbox.openPrograms(options), import("./code-grading-pool.js")]);
      if (grading.status === "rejected") {
        if (programs.status === "fulfilled") await programs.value.close();
        throw grading.reason;
      }
      if (programs.status === "rejected") throw programs.reason;
      return new grading.value.CodeGradingPool(programs.value, options);
    },
    close: (pool) => pool.close(),
    describe: (pool) => pool.describe(),
  };
}

/** The code verifier's pool with the default limits: what code cookbooks declare and ask their run for. */
export const codePool = codeGradingPool();
