/** Two runs compared task by task on the tasks both scored: accuracy difference, paired stderr and 95% CI, McNemar. */
import { mcnemarExactPValue } from "./mcnemar-exact.js";

const z95 = 1.959963984540054;

/** The paired figures of run B against run A; differences are B − A. */
export interface PairedComparison {
  /** Tasks both runs scored. */
  tasks: number;
  accuracyA: number;
  accuracyB: number;
  /** Mean over shared tasks of B's task accuracy minus A's. */
  difference: number;
  /** Standard error of the mean per-task difference (sample standard deviation / √tasks; 0 below two tasks). */
  stderr: number;
  /** Normal 95% interval: difference ± 1.96 · stderr. */
  ci95: [number, number];
  /** Discordant tasks ("solved" = at least half the task's scored attempts correct) and McNemar's exact p-value. */
  mcnemar: { onlyA: number; onlyB: number; pValue: number };
  /** Shared tasks solved by A and not B, and the other way round, in A's task order. */
  solvedOnlyByA: string[];
  solvedOnlyByB: string[];
}

/** Task accuracies (share of correct scored attempts, by task id) of two runs → their paired comparison. */
export function comparePairedTasks(accuracyA: ReadonlyMap<string, number>, accuracyB: ReadonlyMap<string, number>): PairedComparison {
  // Task ids in reading order (numbers inside them compared as numbers), so the solved-alone lists read task-2 before task-10.
  const shared = [...accuracyA.keys()].filter((taskId) => accuracyB.has(taskId)).sort(new Intl.Collator("en", { numeric: true }).compare);
  const n = shared.length;
  const valuesA = shared.map((taskId) => accuracyA.get(taskId)!);
  const valuesB = shared.map((taskId) => accuracyB.get(taskId)!);
  const differences = shared.map((_, index) => valuesB[index]! - valuesA[index]!);
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  const difference = mean(differences);
  const variance = n > 1 ? differences.reduce((sum, value) => sum + (value - difference) ** 2, 0) / (n - 1) : 0;
  const stderr = n > 1 ? Math.sqrt(variance / n) : 0;
  const solvedOnlyByA = shared.filter((_, index) => isSolved(valuesA[index]!) && !isSolved(valuesB[index]!));
  const solvedOnlyByB = shared.filter((_, index) => isSolved(valuesB[index]!) && !isSolved(valuesA[index]!));
  return {
    tasks: n,
    accuracyA: mean(valuesA),
    accuracyB: mean(valuesB),
    difference,
    stderr,
    ci95: [difference - z95 * stderr, difference + z95 * stderr],
    mcnemar: { onlyA: solvedOnlyByA.length, onlyB: solvedOnlyByB.length, pValue: mcnemarExactPValue(solvedOnlyByA.length, solvedOnlyByB.length) },
    solvedOnlyByA,
    solvedOnlyByB,
  };
}

// With one attempt per task this is the attempt's verdict; with several, a majority (ties count as solved).
function isSolved(taskAccuracy: number): boolean {
  return taskAccuracy >= 0.5;
}
