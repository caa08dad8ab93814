/** `rllm compare`'s figures: two runs of one benchmark paired task by task. */
import { InputError } from "../core/errors/input-error.js";
import { comparePairedTasks, type PairedComparison } from "../metrics/paired-comparison.js";
import { pairedMeanDifference, type PairedMeanDifference } from "../metrics/paired-mean-difference.js";
import { taskAccuracies } from "../metrics/task-accuracies.js";
import type { RunData, ViewTournament } from "./run-data.js";

/** One side of a comparison as the report names it. */
export interface ComparedRun {
  directory: string;
  benchmark: string | null;
  model: string | null;
  episodes: number;
  tasks: number;
}

/** One rerank method both runs used, paired over the tasks both reranked. */
export interface RerankComparison {
  method: string;
  /** Whether each task's tournament picked a correct candidate (1 or 0): rerank@1 of A and B, their difference, McNemar. */
  rerankAt1: PairedComparison;
  /** Judge calls per task. */
  judgeCalls: PairedMeanDifference;
}

/** Both runs, their paired figures, and each shared task's accuracy in both. */
export interface RunComparison {
  a: ComparedRun;
  b: ComparedRun;
  comparison: PairedComparison;
  /** Task id, A's accuracy, B's accuracy, over the shared tasks. */
  taskRows: [string, number, number][];
  /** For runs made with --rerank: each method both used (none otherwise). */
  rerank: RerankComparison[];
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
  return { a: sideA, b: sideB, comparison, taskRows, rerank: compareReranks(a.tournaments, b.tournaments) };
}

/** Each method both runs reranked with, paired task by task (a task's latest tournament line counts, as in summary.json). */
function compareReranks(tournamentsA: readonly ViewTournament[], tournamentsB: readonly ViewTournament[]): RerankComparison[] {
  const latestA = latestByMethod(tournamentsA);
  const latestB = latestByMethod(tournamentsB);
  return [...latestA.keys()]
    .filter((method) => latestB.has(method))
    .map((method) => {
      const [linesA, linesB] = [latestA.get(method)!, latestB.get(method)!];
      const pick = (lines: Map<string, ViewTournament>, value: (line: ViewTournament) => number) => new Map([...lines].map(([taskId, line]) => [taskId, value(line)]));
      return {
        method,
        rerankAt1: comparePairedTasks(pick(linesA, (line) => (line.isCorrect ? 1 : 0)), pick(linesB, (line) => (line.isCorrect ? 1 : 0))),
        judgeCalls: pairedMeanDifference(pick(linesA, (line) => line.judgeCalls), pick(linesB, (line) => line.judgeCalls)),
      };
    });
}

// method → task id → its last line (a resumed run may have reranked a task again).
function latestByMethod(tournaments: readonly ViewTournament[]): Map<string, Map<string, ViewTournament>> {
  const byMethod = new Map<string, Map<string, ViewTournament>>();
  for (const line of tournaments) {
    if (!byMethod.has(line.method)) byMethod.set(line.method, new Map());
    byMethod.get(line.method)!.set(line.taskId, line);
  }
  return byMethod;
}

// Task ids in reading order: the numbers inside them compared as numbers, so task-2 comes before task-10.
const naturalOrder = new Intl.Collator("en", { numeric: true });

// A training run's config names the benchmark only when it differs from the cookbook's name.
function benchmarkOf(run: RunData): string | null {
  return run.config?.benchmark ?? run.config?.cookbook ?? null;
}
