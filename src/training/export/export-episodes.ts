/** `rllm export`'s core: a run's scored episodes → transformed, advantage-weighted sequences → rows in the chosen format. */
import { writeFileSync } from "node:fs";
import { z } from "zod";
import type { Episode } from "../../core/episode.js";
import { assignAdvantages, type AdvantageConfig, type TrainSequence } from "../assign-advantages.js";
import { transformEpisodes, type TransformMetrics, type TransformOptions } from "../transforms/index.js";
import { toJsonlRow, toTinkerDatum, toVerlRow, type SequenceContext } from "./export-rows.js";
import { writeVerlParquet } from "./write-verl-parquet.js";

export const ExportFormatSchema = z.enum(["jsonl", "verl-parquet", "tinker-datums"]);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export interface ExportOptions {
  format: ExportFormat;
  file: string;
  transform: TransformOptions;
  advantages: AdvantageConfig;
  /** verl's data_source (the benchmark name). */
  dataSource: string;
  /** verl's extra_info.split: the split the run's tasks came from. */
  split: string;
}

/** Writes the export file; returns the rows written and the transform's keep/drop counts. */
export async function exportEpisodes(
  episodes: readonly Episode[],
  options: ExportOptions,
): Promise<{ rows: number; metrics: TransformMetrics }> {
  const { groups, metrics } = transformEpisodes(episodes, options.transform);
  const { sequences } = assignAdvantages(groups, options.advantages);
  const byId = new Map(episodes.map((episode) => [episode.id, episode]));
  const contexts = sequences.map((sequence, index) => sequenceContext(sequence, byId.get(sequence.episodeId)!, options, index));
  if (options.format === "verl-parquet") {
    writeVerlParquet(options.file, sequences.map((sequence, index) => toVerlRow(sequence, contexts[index]!)));
  } else {
    const rows = sequences.map((sequence, index) =>
      options.format === "jsonl" ? toJsonlRow(sequence, contexts[index]!) : toTinkerDatum(sequence),
    );
    writeFileSync(options.file, rows.map((row) => JSON.stringify(row) + "\n").join(""));
  }
  return { rows: sequences.length, metrics };
}

function sequenceContext(sequence: TrainSequence, episode: Episode, options: Pick<ExportOptions, "dataSource" | "split">, index: number): SequenceContext {
  const trajectory = episode.trajectories[sequence.trajectoryIndex]!;
  const firstStep = trajectory.steps[sequence.stepIndices[0]!]!;
  const target = episode.target;
  return {
    taskId: episode.taskId,
    attempt: episode.attempt,
    isCorrect: episode.score.isCorrect,
    promptMessages: firstStep.input,
    dataSource: options.dataSource,
    split: options.split,
    // The task's ground truth as verl's reward_model.ground_truth: text as it is, numbers and lists as JSON.
    groundTruth: typeof target === "string" ? target : target === undefined ? "" : JSON.stringify(target),
    index,
  };
}
