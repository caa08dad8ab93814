/**
 * A training run folder's own files (`rllm train`, `rllm sft`): `metrics.jsonl` (one line per update and per
 * validation), `state.json` (the last checkpoint, what --resume starts from) and `steps/<n>/episodes.jsonl`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describeIssues, InputError } from "../core/errors/input-error.js";
import { parseJsonFile } from "../core/parse-json-file.js";
import { readJsonl, repairTornTail } from "./append-only-jsonl.js";
import { writeJsonAtomically } from "./run-directory.js";

/** Where a training run's files are. */
export interface TrainingRunPaths {
  directory: string;
  metrics: string;
  state: string;
  /** `steps/<n>/episodes.jsonl`: each step's rollouts. */
  steps: string;
}

/** The files of the training run folder `directory`. */
export function trainingRunPaths(directory: string): TrainingRunPaths {
  return { directory, metrics: path.join(directory, "metrics.jsonl"), state: path.join(directory, "state.json"), steps: path.join(directory, "steps") };
}

/** The folder of step `step`'s rollouts (`steps/0003`), a run directory `rllm export` reads. */
export function trainingStepDirectory(directory: string, step: number): string {
  return path.join(trainingRunPaths(directory).steps, String(step).padStart(4, "0"));
}

/** `state.json`: the last update whose checkpoint is complete, and that checkpoint's folder relative to the run. */
export const TrainStateSchema = z.looseObject({
  step: z.number().int().nonnegative(),
  checkpoint: z.string().min(1),
  /** The policy version the checkpoint holds (rllm train): rollouts sampled by later versions are not carried over a resume. */
  policyVersion: z.number().int().nonnegative().optional(),
});
export type TrainState = z.infer<typeof TrainStateSchema>;

/** Reads `state.json` (absent: undefined); a malformed one is an InputError naming the file and field. */
export function readTrainState(file: string): TrainState | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = TrainStateSchema.safeParse(parseJsonFile(file));
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return parsed.data;
}

/** Writes `state.json` whole or not at all (a temporary file and a rename). */
export function writeTrainState(file: string, state: TrainState): void {
  writeJsonAtomically(file, state);
}

/** The fields of a `metrics.jsonl` line that --resume reads: which kind of record it is and its step. */
export const MetricsLineHeadSchema = z.looseObject({
  kind: z.string().min(1),
  step: z.number().int().nonnegative(),
});

/** An interval figure of a metrics line (pass@1, judge accuracy, rerank@1), as far as the line has it. */
const IntervalFigureSchema = z.looseObject({
  mean: z.number().optional(),
  stderr: z.number().optional(),
  ci95: z.tuple([z.number(), z.number()]).optional(),
  n: z.number().optional(),
});
/** Figures keyed by name (advantage statistics, kept and dropped groups, the backend's update): numbers, or null where a step has none. */
const FigureTableSchema = z.record(z.string(), z.unknown()).nullish();

/**
 * A `metrics.jsonl` line as a reader of figures sees it (`rllm view`'s summary and charts): the head, and the type of
 * each figure it reads where the line has it. Lines of `rllm train` and `rllm sft` carry different figures, and older
 * lines fewer, so every figure is optional; one of the wrong type is an error naming the file, line and field.
 */
export const MetricsLineSchema = MetricsLineHeadSchema.extend({
  kind: z.enum(["train", "validation"]),
  reward: z.number().nullish(),
  accuracy: z.number().nullish(),
  /** A number on a train line (joint training), an interval on a validation line. */
  judgeAccuracy: z.union([z.number(), IntervalFigureSchema]).nullish(),
  passAt1: IntervalFigureSchema.nullish(),
  passAt1Gain: z.looseObject({ mean: z.number(), stderr: z.number(), tasks: z.number() }).nullish(),
  rerankAt1: IntervalFigureSchema.nullish(),
  loss: z.number().nullish(),
  advantage: FigureTableSchema,
  transform: FigureTableSchema,
  update: FigureTableSchema,
  /** rllm train: how stale the step's rollouts were (mean, max, dropped groups…). */
  staleness: FigureTableSchema,
});
export type MetricsLine = z.infer<typeof MetricsLineSchema>;

/**
 * Keeps the `metrics.jsonl` lines of steps up to `step` (later ones are run again after a resume) and returns them.
 * A torn tail, the start of a line a kill cut short, is moved to `metrics.jsonl.torn` first; any other bad line is an
 * InputError naming the file, the line and the field. `schema` checks each line (its head at least); the file is
 * rewritten through a temporary file and a rename, so a second kill leaves the old or the new file, never half of one.
 */
export function keepMetricsUpTo<Schema extends z.ZodType<{ step: number }>>(file: string, step: number, schema: Schema): z.infer<Schema>[] {
  if (!existsSync(file)) return [];
  repairTornTail(file);
  const kept = readJsonl(file, schema).filter(({ record }) => record.step <= step);
  // The kept lines as they were written, byte for byte.
  const lines = readFileSync(file, "utf8").split("\n");
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, kept.map(({ line }) => `${lines[line - 1]}\n`).join(""));
  renameSync(temporary, file);
  return kept.map(({ record }) => record);
}
