/** Two runs' per-task values compared on the tasks both have: the mean difference, its paired stderr and 95% CI. */

const z95 = 1.959963984540054;

/** The paired figures of run B against run A; differences are B − A. */
export interface PairedMeanDifference {
  /** Tasks both runs have a value for. */
  tasks: number;
  meanA: number;
  meanB: number;
  /** Mean over shared tasks of B's value minus A's. */
  difference: number;
  /** Standard error of the mean per-task difference (sample standard deviation / √tasks; 0 below two tasks). */
  stderr: number;
  /** Normal 95% interval: difference ± 1.96 · stderr. */
  ci95: [number, number];
}

/** Per-task values (by task id) of two runs → the paired difference over the tasks both have, in `shared` order. */
export function pairedMeanDifference(valuesA: ReadonlyMap<string, number>, valuesB: ReadonlyMap<string, number>): PairedMeanDifference {
  const shared = [...valuesA.keys()].filter((taskId) => valuesB.has(taskId));
  const n = shared.length;
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  const differences = shared.map((taskId) => valuesB.get(taskId)! - valuesA.get(taskId)!);
  const difference = mean(differences);
  const variance = n > 1 ? differences.reduce((sum, value) => sum + (value - difference) ** 2, 0) / (n - 1) : 0;
  const stderr = n > 1 ? Math.sqrt(variance / n) : 0;
  return {
    tasks: n,
    meanA: mean(shared.map((taskId) => valuesA.get(taskId)!)),
    meanB: mean(shared.map((taskId) => valuesB.get(taskId)!)),
    difference,
    stderr,
    ci95: [difference - z95 * stderr, difference + z95 * stderr],
  };
}
