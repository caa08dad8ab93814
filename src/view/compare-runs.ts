/** `rllm compare`'s figures: two runs of one benchmark paired task by task. */
import { InputError } from "../core/errors/input-error.js";
import { comparePairedTasks, type PairedComparison } from "../metrics/paired-comparison.js";
import { taskAccuracies } from "../metrics/task-accuracies.js";
import type { RunData } from "./run-data.js";

/** One side of a comparison as the report names it. */
export interface ComparedRun {
  directory: string;
  benchmark: string | null;
  model: string | null;
  episodes: number;
  tasks: number;
}

/** Both runs, their paired figures, and each shared task's accuracy in both. */
export interface RunComparison {
  a: ComparedRun;
  b: ComparedRun;
  comparison: PairedComparison;
  /** Task id, A's accuracy, B's accuracy, over the shared tasks. */
  taskRows: [string, number, number][];
}

/** Pairs run B against run A; runs of different benchmarks are refused unless `force`. */
export function compareRuns(a: RunData, b: RunData, options: { force: boolean }): RunComparison {
  const describe = (run: RunData): ComparedRun => ({
    directory: run.directory,
    benchmark: benchmarkOf(run),
    model: typeof run.config?.model === "string" ? run.config.model : null,
    episodes: run.episodes.length,
    tasks: new Set(run.episodes.map((episode) => episode.taskId)).size,
  });
  const sideA = describe(a);
  const sideB = describe(b);
  if (sideA.benchmark !== sideB.benchmark && !options.force) {
    throw new InputError(
      `${a.directory} ran benchmark ${sideA.benchmark ?? "(unknown)"} and ${b.directory} ran ${sideB.benchmark ?? "(unknown)"}: ` +
        "their tasks are not comparable (pass --force to pair them by task id anyway)",
    );
  }
  const accuracyA = taskAccuracies(a.episodes);
  const accuracyB = taskAccuracies(b.episodes);
  const comparison = comparePairedTasks(accuracyA, accuracyB);
  const taskRows: [string, number, number][] = [...accuracyA.keys()]
    .filter((taskId) => accuracyB.has(taskId))
    .sort(naturalOrder.compare)
    .map((taskId) => [taskId, accuracyA.get(taskId)!, accuracyB.get(taskId)!]);
  return { a: sideA, b: sideB, comparison, taskRows };
}

// Task ids in reading order: the numbers inside them compared as numbers, so task-2 comes before task-10.
const naturalOrder = new Intl.Collator("en", { numeric: true });

// A training run's config names the benchmark only when it differs from the cookbook's name.
function benchmarkOf(run: RunData): string | null {
  return run.config?.benchmark ?? run.config?.cookbook ?? null;
}
