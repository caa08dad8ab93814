/**
 * The change in pass@1 between two validations of the same test tasks, paired by task: the mean of the per-task
 * differences and its standard error. Validations reuse the same tasks and sampling seeds, so the between-task spread
 * that dominates each validation's own stderr cancels out of the difference.
 */

/** Mean per-task difference (after − before), its standard error over tasks, and the number of tasks. */
export interface PairedGain {
  mean: number;
  stderr: number;
  tasks: number;
}

/** Paired gain of `after` over `before` (per-task pass rates, same tasks in the same order). */
export function pairedGain(before: readonly number[], after: readonly number[]): PairedGain {
  if (before.length !== after.length) {
    throw new Error(`pairedGain: ${before.length} tasks before but ${after.length} after; validations must cover the same tasks`);
  }
  const differences = after.map((value, index) => value - before[index]!);
  const tasks = differences.length;
  if (tasks === 0) return { mean: 0, stderr: 0, tasks: 0 };
  const mean = differences.reduce((sum, value) => sum + value, 0) / tasks;
  const variance = tasks > 1 ? differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (tasks - 1) : 0;
  return { mean, stderr: Math.sqrt(variance / tasks), tasks };
}
