/**
 * The math verifier's pool: grading threads under a hard time limit per check, opened once per run by the run's
 * services (one thread starts and warms up as the run starts) and closed when the run ends. This module loads nothing
 * of the grader until the pool opens, so a command can name the pool before it loads the verifier.
 */
import { z } from "zod";
import type { PoolDefinition } from "rllm-ts/core";
import type { MathWorkerPool } from "./math-worker-pool.js";

/** Default hard limit per check: generous for real answers, short for pathological ones. */
export const defaultMathTimeoutMs = 5000;

// A run opens a pool once per definition: one definition per limit, so that asking twice for a limit gets one pool.
const definitions = new Map<number, PoolDefinition<MathWorkerPool>>();

/** The pool whose checks stop after `timeoutMs` (the same definition for the same limit); `mathPool` is the default one. */
export function mathGradingPool(timeoutMs = defaultMathTimeoutMs): PoolDefinition<MathWorkerPool> {
  const known = definitions.get(timeoutMs);
  if (known) return known;
  const definition = poolDefinition(timeoutMs);
  definitions.set(timeoutMs, definition);
  return definition;
}

/**
 * The pool the verifier's flags (`--set timeoutMs=…`) grade on, for `rllm grade` to open before the verifier loads; a
 * limit the verifier will refuse gets the default pool (the action refuses the flag by name).
 */
export function mathPoolForFlags(flags: Record<string, unknown>): PoolDefinition<MathWorkerPool> {
  const timeoutMs = z.coerce.number().int().positive().safeParse(flags.timeoutMs ?? defaultMathTimeoutMs);
  return mathGradingPool(timeoutMs.success ? timeoutMs.data : defaultMathTimeoutMs);
}

function poolDefinition(timeoutMs: number): PoolDefinition<MathWorkerPool> {
  return {
    name: "math",
    async open({ concurrency }) {
      const { MathWorkerPool } = await import("./math-worker-pool.js");
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
