/** Accuracy with its standard error (clustered by task when there are several attempts) and a 95% Wilson interval. */
import type { AccuracyStats } from "../core/run-summary.js";

/** The accuracy figures (their schema is part of summary.json). */
export type { AccuracyStats };

const z95 = 1.959963984540054;

/** Wilson score interval for `successes` out of `n` (returns [0, 1] for n = 0). */
export function wilsonInterval(successes: number, n: number, z = z95): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * Accuracy of scored episodes grouped by task. With one attempt per task the stderr is the binomial
 * sqrt(p(1−p)/N); with several, attempts of one task are correlated, so the stderr is taken over
 * per-task means (inspect_ai's clustered stderr).
 */
export function accuracyStats(correctByTask: readonly (readonly boolean[])[]): AccuracyStats {
  const tasks = correctByTask.filter((attempts) => attempts.length > 0);
  const n = tasks.reduce((sum, attempts) => sum + attempts.length, 0);
  if (n === 0) return { mean: 0, stderr: 0, ci95: [0, 1], n: 0 };
  const successes = tasks.reduce((sum, attempts) => sum + attempts.filter(Boolean).length, 0);
  const mean = successes / n;
  const clustered = tasks.some((attempts) => attempts.length > 1);
  let stderr: number;
  if (!clustered) {
    stderr = Math.sqrt((mean * (1 - mean)) / n);
  } else {
    const taskMeans = tasks.map((attempts) => attempts.filter(Boolean).length / attempts.length);
    const average = taskMeans.reduce((sum, value) => sum + value, 0) / taskMeans.length;
    const variance =
      taskMeans.length > 1 ? taskMeans.reduce((sum, value) => sum + (value - average) ** 2, 0) / (taskMeans.length - 1) : 0;
    stderr = Math.sqrt(variance / taskMeans.length);
  }
  return { mean, stderr, ci95: wilsonInterval(successes, n), n };
}
