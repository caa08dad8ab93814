/** One lazily started, process-wide grading pool for evaluators (cookbooks) that grade episodes one at a time. */
import { defaultMathTimeoutMs } from "./grade-math-batch.js";
import { MathWorkerPool, type MathJob, type PooledMathVerdict } from "./math-worker-pool.js";

let sharedPool: MathWorkerPool | undefined;

/** Grades one job on the shared pool (all cores, default time limit); idle workers do not keep the process alive. */
export function gradeMathWithTimeLimit(job: MathJob): Promise<PooledMathVerdict> {
  sharedPool ??= new MathWorkerPool({ timeoutMs: defaultMathTimeoutMs });
  return sharedPool.grade(job);
}
