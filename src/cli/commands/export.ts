/** `rllm export <run-dir> --format jsonl|verl-parquet|tinker-datums`'s action: hands a run's scored episodes to another trainer. */
import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import type { RunConfig } from "../../core/run-config.js";
import { readEpisodes } from "../../runs/episode-log.js";
import { readRunConfig } from "../../runs/read-run-files.js";
import { runPaths } from "../../runs/run-directory.js";
import { exportEpisodes } from "../../training/export/export-episodes.js";
import { assertWritableOutput } from "../../core/check-paths.js";
import type { ExportFlags } from "./export-flags.js";

const EXTENSIONS = { jsonl: "jsonl", "verl-parquet": "parquet", "tinker-datums": "datums.jsonl" } as const;

/** Writes the run's episodes as training rows in the chosen format. */
export async function exportAction(flags: ExportFlags, [runDirectory]: [string]): Promise<void> {
  const paths = runPaths(runDirectory);
  if (!existsSync(paths.episodes)) throw new InputError(`${paths.episodes} not found (is ${runDirectory} a run directory?)`);
  const file = flags.out ?? path.join(runDirectory, `export.${EXTENSIONS[flags.format]}`);
  assertWritableOutput(flags.out ? "--out" : "<run-dir>", file);
  const { rows, metrics } = await exportEpisodes(readEpisodes(paths.episodes), {
    format: flags.format,
    file,
    transform: { merge: flags.merge, minGroupSize: flags.minGroupSize, dropUniformGroups: flags.dropUniform },
    advantages: { estimator: flags.estimator, byRole: {}, roleWeights: {}, convention: "verl" },
    dataSource: runDataSource(runDirectory),
    split: runSplit(runDirectory),
  });
  console.log(`${rows} rows → ${file}`);
  console.log(
    `trajectories ${metrics.trajectories}, kept ${metrics.keptTrajectories} in ${metrics.keptGroups} groups; dropped: ` +
      `no token ids ${metrics.droppedMissingTokenIds}, no logprobs ${metrics.droppedMissingLogprobs}, ` +
      `unscored ${metrics.droppedUnscored}, empty ${metrics.droppedEmpty}, infra errors ${metrics.droppedInfraError}, ` +
      `small groups ${metrics.droppedSmallGroups}, uniform groups ${metrics.droppedUniformGroups} ` +
      `(${metrics.droppedGroupTrajectories} trajectories)`,
  );
}

/**
 * verl's data_source: the benchmark in the run's config.json; a training run's config names it only when it differs
 * from the cookbook's name, which is then the benchmark's.
 */
export function runDataSource(runDirectory: string): string {
  const config = runConfigOf(runDirectory);
  return config?.benchmark ?? config?.cookbook ?? "rllm";
}

/** verl's extra_info.split: an eval run's split, a training run's train split ("train" when the config has none). */
export function runSplit(runDirectory: string): string {
  const config = runConfigOf(runDirectory);
  const split = config?.command === "train" ? (config.trainSplit ?? "train") : config?.split;
  return typeof split === "string" ? split : "train";
}

// The run's config.json; a training step folder (<run>/steps/<n>) reads its run's, two levels up.
function runConfigOf(runDirectory: string): RunConfig | undefined {
  const isTrainingStep = path.basename(path.dirname(path.resolve(runDirectory))) === "steps";
  const configFile = runPaths(isTrainingStep ? path.join(runDirectory, "..", "..") : runDirectory).config;
  return existsSync(configFile) ? readRunConfig(configFile) : undefined;
}
