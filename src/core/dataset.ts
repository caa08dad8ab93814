/** Reads JSONL dataset files row by row with zod validation, and turns `{id, question, ground_truth}` rows into Tasks. */
import { readFileSync, existsSync } from "node:fs";
import { z } from "zod";
import { describeIssues, InputError } from "./errors/input-error.js";
import type { Task } from "./task.js";

/** The generic row every benchmark accepts through --data; extra fields are kept in the task's metadata. */
export const QaRowSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    question: z.string().min(1),
    ground_truth: z.union([z.string(), z.number(), z.boolean()]).transform(String),
  })
  .passthrough();
export type QaRow = z.infer<typeof QaRowSchema>;

// Enough to fix a file in one pass without flooding the terminal.
const maxReportedRows = 10;

/** Parses each line of a JSONL file with `schema`; throws one InputError naming every bad line (file:line: field "x": why). */
export function readJsonlRows<Schema extends z.ZodType>(file: string, schema: Schema): z.infer<Schema>[] {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  const lines = readFileSync(file, "utf8").split("\n");
  const rows: z.infer<Schema>[] = [];
  const problems: string[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const lineNumber = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push(`${file}:${lineNumber}: not valid JSON (${(error as Error).message})`);
      return;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) rows.push(parsed.data);
    else problems.push(describeIssues(file, lineNumber, parsed.error));
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, maxReportedRows).join("\n");
    const more = problems.length > maxReportedRows ? `\n... and ${problems.length - maxReportedRows} more bad rows` : "";
    throw new InputError(`${problems.length} bad row(s) in ${file}:\n${shown}${more}`);
  }
  if (rows.length === 0) throw new InputError(`${file}: no rows`);
  return rows;
}

/** Throws when two rows share an id: episodes are keyed by task id, so a duplicate would be silently merged. */
export function assertUniqueIds(file: string, rows: readonly { id: string }[]): void {
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const previous = seen.get(row.id);
    if (previous !== undefined) {
      throw new InputError(`${file}: row ${index + 1}: field "id": duplicate id "${row.id}" (first used by row ${previous + 1})`);
    }
    seen.set(row.id, index);
  });
}

/** Tasks from generic rows: the question is the instruction, the whole row is the metadata. */
export function qaRowsToTasks(rows: readonly QaRow[]): Task[] {
  return rows.map((row) => ({ id: row.id, instruction: row.question, metadata: { ...row } }));
}

/** Reads a user's `--data` JSONL file of `{id, question, ground_truth, ...}` rows into Tasks. */
export function loadQaTasks(file: string): Task[] {
  const rows = readJsonlRows(file, QaRowSchema);
  assertUniqueIds(file, rows);
  return qaRowsToTasks(rows);
}
