/** Readers of a run folder's config.json and summary.json, of any format version (older files are upgraded on the way in). */
import { z } from "zod";
import { describeIssues, InputError } from "../core/errors/input-error.js";
import { parseJsonFile } from "../core/parse-json-file.js";
import { RunConfigSchema, type RunConfig } from "../core/run-config.js";
import { RunSummarySchema, type RunSummary } from "../core/run-summary.js";

/** config.json of a run; a file without formatVersion is format 1. */
export function readRunConfig(file: string): RunConfig {
  return readJsonFile(file, RunConfigSchema);
}

/** summary.json of a run; a format 1 file reads with `counts.unscored` 0. */
export function readRunSummary(file: string): RunSummary {
  return readJsonFile(file, RunSummarySchema);
}

/** `trainedOn` in an `rllm sft` run's config.json: the benchmark and the test splits its rows came from (absent: none). */
export const TrainedOnSchema = z.object({ benchmark: z.string().nullable(), splits: z.array(z.string()) });
export type TrainedOn = z.infer<typeof TrainedOnSchema>;

/** The test splits an `rllm sft` run trained on, from its config.json; a malformed entry is an InputError naming the field. */
export function readTrainedOn(configFile: string): TrainedOn | undefined {
  return readJsonFile(configFile, z.looseObject({ trainedOn: TrainedOnSchema.optional() })).trainedOn;
}

function readJsonFile<Schema extends z.ZodType>(file: string, schema: Schema): z.infer<Schema> {
  const parsed = schema.safeParse(parseJsonFile(file));
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return parsed.data;
}
