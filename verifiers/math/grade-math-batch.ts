/** Grades many (response, ground truth) pairs on a worker-thread pool, each check under a hard time limit. */
import { availableParallelism } from "node:os";
import { MathPolicySchema, type MathPolicyInput } from "./math-policy.js";
import { defaultMathTimeoutMs } from "./math-pool.js";
import { MathWorkerPool, type MathJob, type PooledMathVerdict } from "./math-worker-pool.js";


/**
 * Jobs per worker thread: a thread takes about as long to start and warm up (mathjs) as it takes to grade a few
 * hundred typical pairs, so a small batch is faster on fewer threads; a 3-row file starts one.
 */
export const jobsPerWorker = 256;

export interface GradeMathBatchOptions {
  policy?: MathPolicyInput;
  /** The run's pool to grade on (left open); absent, the batch opens one of its own and closes it. */
  pool?: MathWorkerPool;
  /** Worker threads at most (default: all cores); fewer for a small batch, one per `jobsPerWorker` jobs. */
  concurrency?: number;
  timeoutMs?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Verdicts for `jobs`, in order; a check past the time limit is "not equivalent" with `timedOut: true`. */
export async function gradeMathBatch(jobs: readonly MathJob[], options: GradeMathBatchOptions = {}): Promise<PooledMathVerdict[]> {
  if (jobs.length === 0) return [];
  const policy = MathPolicySchema.parse(options.policy ?? {});
  const pool =
    options.pool ??
    new MathWorkerPool({
      size: workerCount(jobs.length, options.concurrency ?? availableParallelism()),
      timeoutMs: options.timeoutMs ?? defaultMathTimeoutMs,
    });
  options.pool?.capThreads(workerCount(jobs.length, options.pool.size));
  let done = 0;
  try {
    return await Promise.all(
      jobs.map(async (job) => {
        const verdict = await pool.grade({ ...job, policy: job.policy ?? policy });
        done += 1;
        options.onProgress?.(done, jobs.length);
        return verdict;
      }),
    );
  } finally {
    if (!options.pool) await pool.close();
  }
}

/** Worker threads for `jobCount` jobs: one per `jobsPerWorker` jobs, at most `concurrency`. */
export function workerCount(jobCount: number, concurrency: number): number {
  return Math.max(1, Math.min(concurrency, Math.ceil(jobCount / jobsPerWorker)));
}
