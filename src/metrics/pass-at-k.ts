/** Unbiased pass@k (Chen et al. 2021): the chance that at least one of k attempts drawn from n is correct. */

/**
 * 1 − C(n−c, k)/C(n, k), computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i) so that no binomial overflows.
 * Requires k ≤ n; all k drawn attempts can only fail when n − c ≥ k.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!(k >= 1 && k <= n)) throw new RangeError(`pass@k needs 1 <= k <= n, got k=${k}, n=${n}`);
  if (c < 0 || c > n) throw new RangeError(`pass@k needs 0 <= c <= n, got c=${c}, n=${n}`);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** The k values to report for `attempts` attempts per task: every power of two up to it, and attempts itself. */
export function reportedKs(attempts: number): number[] {
  const ks = new Set<number>();
  for (let k = 1; k <= attempts; k *= 2) ks.add(k);
  ks.add(attempts);
  return [...ks].sort((a, b) => a - b);
}

/** Mean pass@k over tasks, given each task's (attempts scored, attempts correct); tasks with fewer than k scored attempts are left out. */
export function meanPassAtK(perTask: readonly { n: number; c: number }[], k: number): { value: number; tasks: number } {
  const eligible = perTask.filter((task) => task.n >= k);
  if (eligible.length === 0) return { value: 0, tasks: 0 };
  const total = eligible.reduce((sum, task) => sum + passAtK(task.n, task.c, k), 0);
  return { value: total / eligible.length, tasks: eligible.length };
}
