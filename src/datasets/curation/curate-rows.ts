/**
 * Curation: scored runs → SFT rows with provenance, as one pure function. Tasks pass the filter, their attempts are
 * selected, and rows are split into train and validation by task (a task's rows never sit on both sides).
 */
import type { Episode } from "../../core/episode.js";
import { createRng, shuffled } from "../../core/random.js";
import type { RowProvenance } from "../local-dataset.js";
import type { SftRow } from "../sft-row.js";
import { judgeRows, solverRow, type CuratedRow, type TournamentVerdicts } from "./episode-rows.js";
import { evaluateFilter, filterConjuncts, type FilterNode } from "./filter-expression.js";
import { selectTaskEpisodes, type SelectCounts, type SelectOptions } from "./select-episodes.js";
import { taskStatistic, taskStatistics } from "./task-statistics.js";

/** One run folder's content. */
export interface CurationRun {
  directory: string;
  episodes: readonly Episode[];
  /** The run's tournaments (`tournaments.jsonl`), for judge rows. */
  tournaments: readonly TournamentVerdicts[];
}

/** How to curate: the filter, the selection, the trajectory, and the train/val split. */
export interface CurationOptions {
  /** The parsed `--filter` and its source text; absent keeps every task. */
  filter?: { tree: FilterNode; text: string };
  select: SelectOptions;
  /** Trajectory name: "judge" takes judge rows from tournaments, any other name solver-style rows. */
  trajectory: string;
  valFraction: number;
  seed: number;
}

/** What survived each step, in order; the first 0 is what removed everything. */
export interface CurationCounts extends SelectCounts {
  tasks: number;
  filter: number;
  rows: number;
}

/** The rows by split, where each came from, and what each step kept. */
export interface CurationResult {
  splits: { train: SftRow[]; val?: SftRow[] };
  provenance: RowProvenance[];
  counts: CurationCounts;
  /** When no row is left: the step that removed the last ones, in words (and, for the filter, which terms). */
  emptyReason?: string;
}

/** Curates rows from `runs` (which share a benchmark). */
export function curateRows(runs: readonly CurationRun[], options: CurationOptions): CurationResult {
  const episodes = runs.flatMap((run) => run.episodes);
  const statistics = taskStatistics(episodes);
  const passes = (tree: FilterNode) => statistics.filter((task) => evaluateFilter(tree, (name) => taskStatistic(task, name)));
  const kept = new Set((options.filter ? passes(options.filter.tree) : statistics).map((task) => task.taskId));
  const counts: CurationCounts = { tasks: statistics.length, filter: kept.size, select: 0, minReward: 0, dedup: 0, maxPerTask: 0, rows: 0 };

  const curated: CuratedRow[] = [];
  runs.forEach((run, runIndex) => {
    // Several runs may hold the same task ids; a run prefix keeps row ids unique.
    const prefix = runs.length > 1 ? `${runIndex}/` : "";
    const runRows = options.trajectory === "judge" ? runJudgeRows(run, kept, options.select, counts) : runSolverRows(run, kept, options, counts);
    curated.push(...runRows.map((entry) => ({ ...entry, row: { ...entry.row, id: `${prefix}${entry.row.id}` } })));
  });
  counts.rows = curated.length;

  const taskIds = [...new Set(curated.map((entry) => entry.taskId))];
  const validationCount = Math.round(taskIds.length * options.valFraction);
  const validationTasks = new Set(shuffled(taskIds, createRng(options.seed)).slice(0, validationCount));
  const train = curated.filter((entry) => !validationTasks.has(entry.taskId));
  const val = curated.filter((entry) => validationTasks.has(entry.taskId));
  const provenance = [...train.map((entry) => ({ ...entry, split: "train" })), ...val.map((entry) => ({ ...entry, split: "val" }))].map(
    ({ row, source, split }) => ({ id: row.id, split, ...source }),
  );
  const result: CurationResult = {
    splits: { train: train.map((entry) => entry.row), ...(options.valFraction > 0 ? { val: val.map((entry) => entry.row) } : {}) },
    provenance,
    counts,
  };
  if (curated.length === 0) result.emptyReason = emptyReason(counts, options, passes);
  return result;
}

function runSolverRows(run: CurationRun, kept: ReadonlySet<string>, options: CurationOptions, counts: SelectCounts): CuratedRow[] {
  const byTask = new Map<string, Episode[]>();
  for (const episode of run.episodes) if (kept.has(episode.taskId)) byTask.set(episode.taskId, [...(byTask.get(episode.taskId) ?? []), episode]);
  return [...byTask.values()].flatMap((attempts) =>
    selectTaskEpisodes(attempts, options.select, counts).flatMap((episode) => solverRow(episode, options.trajectory, run.directory) ?? []),
  );
}

function runJudgeRows(run: CurationRun, kept: ReadonlySet<string>, select: SelectOptions, counts: SelectCounts): CuratedRow[] {
  const rows: CuratedRow[] = [];
  for (const tournament of run.tournaments) {
    if (!kept.has(tournament.taskId)) continue;
    // The slot order `rllm eval --rerank` used: the task's attempts, infra failures left out, by attempt.
    const candidates = run.episodes
      .filter((episode) => episode.taskId === tournament.taskId && episode.errorClass !== "infra_error")
      .sort((a, b) => a.attempt - b.attempt);
    let chosen = judgeRows(tournament, candidates, run.directory);
    counts.select += chosen.length;
    counts.minReward += chosen.length;
    counts.dedup += chosen.length;
    if (select.maxPerTask !== undefined) chosen = chosen.slice(0, select.maxPerTask);
    counts.maxPerTask += chosen.length;
    rows.push(...chosen);
  }
  return rows;
}

function emptyReason(counts: CurationCounts, options: CurationOptions, passes: (tree: FilterNode) => unknown[]): string {
  if (counts.tasks === 0) return "the runs have no scored episodes";
  if (counts.filter === 0 && options.filter) {
    const terms = filterConjuncts(options.filter.tree);
    const culprits = terms.filter((term) => passes(term).length === 0).map((term) => `"${options.filter!.text.slice(term.start, term.end)}"`);
    const which = terms.length > 1 && culprits.length > 0 ? ` (no task passes ${culprits.join(", ")})` : "";
    return `--filter "${options.filter.text}" removed all ${counts.tasks} tasks${which}`;
  }
  if (counts.select === 0) {
    return options.trajectory === "judge"
      ? `no judge verdict on the ${counts.filter} tasks picked a correct answer over a wrong one (is there a tournaments.jsonl from --rerank?)`
      : `--select ${options.select.mode} found no attempt on the ${counts.filter} tasks that passed the filter`;
  }
  if (counts.minReward === 0) return `--min-reward ${options.select.minReward} removed all ${counts.select} selected attempts`;
  return `no ${options.trajectory} trajectory with steps in the ${counts.maxPerTask} selected episodes (see --trajectory)`;
}
