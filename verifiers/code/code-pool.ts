/**
 * The code verifier's pool definition: the run's program slots (local) or hosts (remote), opened by the run's services
 * (code-grading-pool.ts). This module loads nothing of the grader until the pool opens, so a command can name the pool
 * before it loads the verifier.
 */
import { z } from "zod";
import type { PoolDefinition, ProgramSandboxOptions } from "rllm-ts/core";
import type { CodeGradingPool } from "./code-grading-pool.js";

// A run opens a pool once per definition: one definition per set of limits, so that asking twice for them gets one pool.
const definitions = new Map<string, PoolDefinition<CodeGradingPool>>();

/** The pool for programs under `limits` (default: SandboxLimitsSchema's), the same definition for the same limits; `codePool` is the default one. */
export function codeGradingPool(limits?: ProgramSandboxOptions["limits"]): PoolDefinition<CodeGradingPool> {
  const key = limits === undefined ? "" : JSON.stringify(limits);
  const known = definitions.get(key);
  if (known) return known;
  const definition = poolDefinition(limits);
  definitions.set(key, definition);
  return definition;
}

/**
 * The pool the verifier's flags (`--set memoryMb=…`) grade on, for `rllm grade` to open before the verifier loads; a
 * cap the verifier will refuse gets the default pool (the action refuses the flag by name).
 */
export function codePoolForFlags(flags: Record<string, unknown>): PoolDefinition<CodeGradingPool> {
  const memoryMb = z.coerce.number().int().positive().optional().safeParse(flags.memoryMb);
  return codeGradingPool(memoryMb.success && memoryMb.data !== undefined ? { memoryBytes: memoryMb.data * 1024 * 1024 } : undefined);
}

function poolDefinition(limits: ProgramSandboxOptions["limits"] | undefined): PoolDefinition<CodeGradingPool> {
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
