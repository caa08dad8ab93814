/** Reads JSONL dataset files row by row with zod validation, and turns `{id, question, ground_truth}` rows into Tasks. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { describeIssues, InputError } from "./errors/input-error.js";
import type { Task } from "./task.js";

/** A row id: a non-empty string or a number, kept as a string; a missing one is reported as `required`. */
export const RowIdSchema = z
  .union([z.string().min(1), z.number()], {
    error: (issue) => (issue.input === undefined ? "required" : "expected a non-empty string or a number"),
  })
  .transform(String);

/** The generic row every benchmark accepts through --data; extra fields are kept in the task's metadata. */
export const QaRowSchema = z
  .object({
    id: RowIdSchema,
    question: z.string().min(1),
    ground_truth: z.union([z.string(), z.number(), z.boolean()]).transform(String),
  })
  .passthrough();
export type QaRow = z.infer<typeof QaRowSchema>;

/** One parsed row and the 1-based line of the file it came from. */
export interface JsonlEntry<Row> {
  line: number;
  row: Row;
}

// Enough to fix a file in one pass without flooding the terminal.
const maxReportedRows = 10;

/** Parses each line of a JSONL file with `schema`, keeping line numbers; throws one InputError naming every bad line. */
export function readJsonlEntries<Schema extends z.ZodType>(file: string, schema: Schema): JsonlEntry<z.infer<Schema>>[] {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(`${file}: is a directory, not a JSONL file`);
  // Editors on Windows save UTF-8 with a byte-order mark, which JSON.parse rejects.
  const lines = readFileSync(file, "utf8").replace(/^\uFEFF/, "").split("\n");
  const entries: JsonlEntry<z.infer<Schema>>[] = [];
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
    if (parsed.success) entries.push({ line: lineNumber, row: parsed.data });
    else problems.push(describeIssues(file, lineNumber, parsed.error));
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, maxReportedRows).join("\n");
    const more = problems.length > maxReportedRows ? `\n... and ${problems.length - maxReportedRows} more bad rows` : "";
    throw new InputError(`${problems.length} bad row(s) in ${file}:\n${shown}${more}`);
  }
  if (entries.length === 0) throw new InputError(`${file}: no rows`);
  return entries;
}

/** Parses each line of a JSONL file with `schema`; throws one InputError naming every bad line (file:line: field "x": why). */
export function readJsonlRows<Schema extends z.ZodType>(file: string, schema: Schema): z.infer<Schema>[] {
  return readJsonlEntries(file, schema).map((entry) => entry.row);
}

/**
 * Throws when two rows share an id: episodes are keyed by task id, so a duplicate would be silently merged.
 * With `lines` (each row's line in the file) the error names both lines, else both row numbers.
 */
export function assertUniqueIds(file: string, rows: readonly { id: string }[], lines?: readonly number[]): void {
  const seen = new Map<string, number>();
  const where = (index: number) => (lines ? `line ${lines[index]}` : `row ${index + 1}`);
  rows.forEach((row, index) => {
    const previous = seen.get(row.id);
    if (previous !== undefined) {
      const location = lines ? `${file}:${lines[index]}` : `${file}: row ${index + 1}`;
      throw new InputError(`${location}: field "id": duplicate id "${row.id}" (first used on ${where(previous)})`);
    }
    seen.set(row.id, index);
  });
}

/** Reads rows that carry an `id` and refuses a repeated one, naming both lines. */
export function readUniqueJsonlRows<Schema extends z.ZodType<{ id: string }, unknown>>(file: string, schema: Schema): z.infer<Schema>[] {
  const entries = readJsonlEntries(file, schema);
  const rows = entries.map((entry) => entry.row);
  assertUniqueIds(file, rows, entries.map((entry) => entry.line));
  return rows;
}

/** Tasks from generic rows: the question is the instruction, the whole row is the metadata. */
export function qaRowsToTasks(rows: readonly QaRow[]): Task[] {
  return rows.map((row) => ({ id: row.id, instruction: row.question, metadata: { ...row } }));
}

/** Reads a user's `--data` JSONL file of `{id, question, ground_truth, ...}` rows into Tasks. */
export function loadQaTasks(file: string): Task[] {
  return qaRowsToTasks(readUniqueJsonlRows(file, QaRowSchema));
}
