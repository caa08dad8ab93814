/** Two runs compared task by task on the tasks both scored: accuracy difference, paired stderr and 95% CI, McNemar. */
import { mcnemarExactPValue } from "./mcnemar-exact.js";
import { pairedMeanDifference } from "./paired-mean-difference.js";

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
  const paired = pairedMeanDifference(new Map(shared.map((taskId) => [taskId, accuracyA.get(taskId)!])), accuracyB);
  const solvedOnlyByA = shared.filter((taskId) => isSolved(accuracyA.get(taskId)!) && !isSolved(accuracyB.get(taskId)!));
  const solvedOnlyByB = shared.filter((taskId) => isSolved(accuracyB.get(taskId)!) && !isSolved(accuracyA.get(taskId)!));
  return {
    tasks: paired.tasks,
    accuracyA: paired.meanA,
    accuracyB: paired.meanB,
    difference: paired.difference,
    stderr: paired.stderr,
    ci95: paired.ci95,
    mcnemar: { onlyA: solvedOnlyByA.length, onlyB: solvedOnlyByB.length, pValue: mcnemarExactPValue(solvedOnlyByA.length, solvedOnlyByB.length) },
    solvedOnlyByA,
    solvedOnlyByB,
  };
}

// With one attempt per task this is the attempt's verdict; with several, a majority (ties count as solved).
function isSolved(taskAccuracy: number): boolean {
  return taskAccuracy >= 0.5;
}
