/** Reads an eval set folder for the viewer: set-summary.json's comparison table, and where each cell's report is. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describeIssues, InputError } from "../core/errors/input-error.js";
import { SetSummarySchema, type SetComparisonRow } from "../core/set-summary.js";
import { runPaths } from "../runs/run-directory.js";

/** A cell as the set report shows it: its row and its run folder, when the cell has episodes to report. */
export interface SetCellView {
  row: SetComparisonRow;
  /** The cell's run folder (the set folder joined with the row's directory); null when it has no episodes.jsonl. */
  runDirectory: string | null;
}

/** Everything the set report shows. */
export interface SetData {
  /** The set folder as given on the command line. */
  directory: string;
  cells: SetCellView[];
}

/** Whether `directory` holds an eval set (`set.json`, written when `rllm eval --config` starts). */
export function isSetDirectory(directory: string): boolean {
  return existsSync(path.join(directory, "set.json"));
}

/** The set in `directory`; a set that never finished has no set-summary.json yet, which is an input error saying how to finish it. */
export function readSetDirectory(directory: string): SetData {
  const file = path.join(directory, "set-summary.json");
  if (!existsSync(file)) throw new InputError(`${file} not found: the eval set has not finished (finish it with rllm eval --config <file> --out ${directory} --resume)`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = SetSummarySchema.safeParse(value);
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return {
    directory,
    cells: parsed.data.cells.map((row) => {
      const runDirectory = path.join(directory, row.directory);
      return { row, runDirectory: existsSync(runPaths(runDirectory).episodes) ? runDirectory : null };
    }),
  };
}
