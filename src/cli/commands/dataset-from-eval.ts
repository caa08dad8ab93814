/** `rllm dataset from-eval <run-dir>...`'s action: reads the runs, curates rows, prints the counts, writes the dataset. */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import { rllmHome } from "../../core/rllm-home.js";
import { readLocalDataset, writeLocalDataset, type LocalDatasetManifest } from "../../datasets/local-dataset.js";
import { readJsonl } from "../../runs/append-only-jsonl.js";
import { readEpisodes } from "../../runs/episode-log.js";
import { readRunConfig } from "../../runs/read-run-files.js";
import { runPaths } from "../../runs/run-directory.js";
import { TournamentLineSchema } from "../../tournament/eval-reranker.js";
import { curateRows, type CurationRun } from "../../datasets/curation/curate-rows.js";
import { FilterSyntaxError, filterNames, parseFilterExpression } from "../../datasets/curation/filter-expression.js";
import { isKnownFilterName, taskStatistics } from "../../datasets/curation/task-statistics.js";
import { benchmarks } from "../../../benchmarks/registry.js";
import type { FromEvalFlags } from "./dataset-flags.js";
import { z } from "zod";

// Only what curation reads of a tournament line; error lines (a failed rerank) have no judge trajectory.
const TournamentVerdictsSchema = z.union([TournamentLineSchema, z.object({ taskId: z.string(), error: z.string() })]);

/** Reads one run folder; an unknown folder or one without episodes is an InputError. */
function readRun(directory: string): CurationRun & { benchmark: string; split: string | undefined } {
  if (!existsSync(directory) || !statSync(directory).isDirectory()) throw new InputError(`${directory}: no such run directory`);
  const paths = runPaths(directory);
  const episodesFile = paths.episodes;
  if (!existsSync(episodesFile)) throw new InputError(`${directory}: not a run directory (no episodes.jsonl; write one with rllm eval --out)`);
  const config = existsSync(paths.config) ? readRunConfig(paths.config) : undefined;
  const benchmark = String(config?.benchmark ?? "unknown");
  const split = typeof config?.split === "string" ? config.split : undefined;
  const tournaments = readJsonl(paths.tournaments, TournamentVerdictsSchema).flatMap(({ record }) => ("judgeTrajectory" in record ? [record] : []));
  return { directory: path.resolve(directory), benchmark, split, episodes: readEpisodes(episodesFile), tournaments };
}

/** Runs `rllm dataset from-eval`; sets exit code 1 when nothing is left to write. */
export async function datasetFromEval(flags: FromEvalFlags, [directories]: [string[]]): Promise<void> {
  const home = rllmHome();
  // A bad expression is refused first: exit 2 with a caret, before any file is read.
  const filter = flags.filter === undefined ? undefined : { tree: parseFilterExpression(flags.filter), text: flags.filter };
  if (benchmarks.has(flags.name)) throw new InputError(`--name ${flags.name}: that is a built-in benchmark; choose another name`);
  if (!flags.force && !flags.dryRun && readLocalDataset(home, flags.name)) {
    throw new InputError(`--name ${flags.name}: a dataset of that name exists (rllm dataset remove ${flags.name}, or --force to replace it)`);
  }
  const runs = directories.map(readRun);
  const benchmarkNames = [...new Set(runs.map((run) => run.benchmark))];
  if (benchmarkNames.length > 1 && !flags.force) {
    throw new InputError(`the runs are of different benchmarks (${runs.map((run) => `${run.directory}: ${run.benchmark}`).join(", ")}); pass --force to mix them`);
  }
  if (filter) {
    const statistics = taskStatistics(runs.flatMap((run) => run.episodes));
    const unknown = filterNames(filter.tree).find(({ name }) => !isKnownFilterName(name, statistics));
    if (unknown) {
      throw new FilterSyntaxError(filter.text, unknown.start, `unknown name "${unknown.name}" (use avg, reward, correct, attempts, tokens, pass@k, maj@k or a signal of the runs)`);
    }
  }
  const result = curateRows(runs, {
    filter,
    select: { mode: flags.select, bestN: flags.bestN, minReward: flags.minReward, maxPerTask: flags.maxPerTask, dedup: flags.dedup },
    trajectory: flags.trajectory,
    valFraction: flags.valFraction,
    seed: flags.seed,
  });
  const { counts } = result;
  console.error(
    `tasks ${counts.tasks} → filter ${counts.filter} → select ${counts.select} → min-reward ${counts.minReward} → dedup ${counts.dedup} → ` +
      `max-per-task ${counts.maxPerTask} → rows ${counts.rows} (train ${result.splits.train.length}${result.splits.val ? `, val ${result.splits.val.length}` : ""})`,
  );
  if (result.emptyReason) {
    console.error(`rllm: no rows: ${result.emptyReason}`);
    process.exitCode = 1;
    return;
  }
  if (flags.dryRun) {
    console.log(JSON.stringify(result.splits.train[0] ?? result.splits.val?.[0], null, 2));
    return;
  }
  const manifest: LocalDatasetManifest = {
    kind: "curated",
    name: flags.name,
    createdAt: new Date().toISOString(),
    ...(benchmarkNames.length === 1 ? { benchmark: benchmarkNames[0] } : {}),
    command: ["rllm", ...process.argv.slice(2)],
    splits: Object.fromEntries(Object.entries(result.splits).map(([split, rows]) => [split, { rows: rows.length }])),
    rows: result.provenance,
    sourceSplits: [...new Set(runs.flatMap((run) => (run.split === undefined ? [] : [run.split])))],
    curation: { runs: runs.map((run) => run.directory), ...flags, counts },
  };
  const directory = writeLocalDataset(home, manifest, result.splits);
  console.log(`wrote ${directory} (${counts.rows} rows)`);
}
