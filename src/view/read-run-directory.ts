/** Reads a run directory for the viewer, and what was appended to it since (the live view reads only new bytes). */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { EpisodeSchema } from "../core/episode.js";
import { describeIssues, InputError } from "../core/errors/input-error.js";
import type { RunSummary } from "../core/run-summary.js";
import { readRunConfig, readRunSummary } from "../runs/read-run-files.js";
import { runPaths } from "../runs/run-directory.js";
import { MetricsLineSchema, trainingRunPaths } from "../runs/training-run-files.js";
import { readAppendedLines, type LineCursor } from "../runs/read-appended-lines.js";
import {
  slimEpisode,
  ViewTournamentSchema,
  type RunCursors,
  type RunData,
  type RunUpdate,
  type TrainingRecord,
  type ViewEpisode,
} from "./run-data.js";

const start: LineCursor = { offset: 0, line: 0 };

/** Refuses a run directory that is not there, in the one wording `rllm view` and `rllm compare` share. */
export function assertRunDirectoryExists(directory: string): void {
  if (!existsSync(directory) || !statSync(directory).isDirectory()) throw new InputError(`${directory}: no such run directory`);
}

/** The run in `directory` and the cursors the live view continues from. */
export function readRunDirectory(directory: string): { run: RunData; cursors: RunCursors } {
  assertRunDirectoryExists(directory);
  const paths = runPaths(directory);
  const { metrics: metricsFile, steps: stepsDirectory } = trainingRunPaths(directory);
  if (!existsSync(paths.episodes) && !existsSync(metricsFile)) {
    throw new InputError(`${directory}: neither episodes.jsonl nor metrics.jsonl (is it a run directory of rllm eval or rllm train?)`);
  }
  const episodes = readEpisodeLines(paths.episodes, start);
  const training = readTrainingLines(metricsFile, start);
  const stepEpisodes = existsSync(stepsDirectory) ? readStepEpisodes(stepsDirectory) : [];
  const run: RunData = {
    directory,
    kind: existsSync(metricsFile) ? "training" : "eval",
    config: existsSync(paths.config) ? readRunConfig(paths.config) : null,
    summary: readSummaryIfPresent(paths.summary),
    episodes: [...stepEpisodes, ...episodes.records],
    tournaments: existsSync(paths.tournaments) ? readTournaments(paths.tournaments) : [],
    training: training.records,
  };
  return { run, cursors: { episodes: episodes.cursor, metrics: training.cursor } };
}

/** The episodes and training records appended since `cursors`, and the summary as it is now. */
export function readRunUpdate(directory: string, cursors: RunCursors): RunUpdate {
  const paths = runPaths(directory);
  const episodes = readEpisodeLines(paths.episodes, cursors.episodes);
  const training = readTrainingLines(trainingRunPaths(directory).metrics, cursors.metrics);
  return {
    episodes: episodes.records,
    training: training.records,
    summary: readSummaryIfPresent(paths.summary),
    cursors: { episodes: episodes.cursor, metrics: training.cursor },
  };
}

function readSummaryIfPresent(file: string): RunSummary | null {
  return existsSync(file) ? readRunSummary(file) : null;
}

// A resumed infra failure appends a second line for the same id: the later one replaces the earlier.
function readEpisodeLines(file: string, cursor: LineCursor, step?: number): { records: ViewEpisode[]; cursor: LineCursor } {
  const { records, cursor: next } = readLines(file, cursor, (value, line) => {
    const parsed = EpisodeSchema.safeParse(value);
    if (!parsed.success) throw new InputError(describeIssues(file, line, parsed.error));
    return slimEpisode(parsed.data, step);
  });
  const byId = new Map<string, ViewEpisode>();
  for (const episode of records) {
    byId.delete(episode.id);
    byId.set(episode.id, episode);
  }
  return { records: [...byId.values()], cursor: next };
}

function readTrainingLines(file: string, cursor: LineCursor): { records: TrainingRecord[]; cursor: LineCursor } {
  return readLines(file, cursor, (value, line) => parseWith(MetricsLineSchema, value, file, line));
}

function readTournaments(file: string) {
  // Lines of failed reranks (`error` instead of `record`) have no tournament to show.
  return readLines(file, start, (value, line) => (isRecord(value) && "error" in value ? undefined : parseWith(ViewTournamentSchema, value, file, line))).records;
}

// Training rollouts: steps/<n>/episodes.jsonl, in step order.
function readStepEpisodes(stepsDirectory: string): ViewEpisode[] {
  return readdirSync(stepsDirectory)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b))
    .flatMap((name) => readEpisodeLines(runPaths(path.join(stepsDirectory, name)).episodes, start, Number(name)).records);
}

function readLines<Entry>(file: string, cursor: LineCursor, parse: (value: unknown, line: number) => Entry | undefined): { records: Entry[]; cursor: LineCursor } {
  if (!existsSync(file)) return { records: [], cursor };
  const appended = readAppendedLines(file, cursor);
  const records: Entry[] = [];
  for (const { line, text } of appended.lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`${file}:${line}: not valid JSON (${(error as Error).message})`);
    }
    const record = parse(value, line);
    if (record !== undefined) records.push(record);
  }
  return { records, cursor: appended.cursor };
}

function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown, file: string, line: number): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InputError(describeIssues(file, line, parsed.error));
  return parsed.data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
