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

/** One InputError naming every problem of `file` (the first ten, then how many more), each on its own line. */
export function rowProblemsError(file: string, problems: readonly string[]): InputError {
  const shown = problems.slice(0, maxReportedRows).join("\n");
  const more = problems.length > maxReportedRows ? `\n... and ${problems.length - maxReportedRows} more bad rows` : "";
  return new InputError(`${problems.length} bad row(s) in ${file}:\n${shown}${more}`);
}

/**
 * Remembers ids as rows go by: `(id, location, where)` gives the problem line of a repeated id at `location`
 * (`file:line`), naming where (`line n`) it was first used, and nothing for a new one.
 */
export function duplicateIdChecker() {
  const seen = new Map<string, string>();
  return (id: string, location: string, where: string): string | undefined => {
    const first = seen.get(id);
    if (first !== undefined) return `${location}: field "id": duplicate id "${id}" (first used on ${first})`;
    seen.set(id, where);
    return undefined;
  };
}

/**
 * Parses each line of a JSONL file with `schema`, keeping line numbers; throws one InputError naming every bad line:
 * lines that are not JSON, rows the schema refuses and, with `uniqueIds`, rows repeating an earlier row's id, together
 * in line order, so one pass over the file fixes them all.
 */
export function readJsonlEntries<Schema extends z.ZodType>(file: string, schema: Schema, options: { uniqueIds?: boolean } = {}): JsonlEntry<z.infer<Schema>>[] {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(`${file}: is a directory, not a JSONL file`);
  // Editors on Windows save UTF-8 with a byte-order mark, which JSON.parse rejects.
  const lines = readFileSync(file, "utf8").replace(/^\uFEFF/, "").split("\n");
  const entries: JsonlEntry<z.infer<Schema>>[] = [];
  const problems: string[] = [];
  const duplicate = options.uniqueIds ? duplicateIdChecker() : undefined;
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
    if (!parsed.success) {
      problems.push(describeIssues(file, lineNumber, parsed.error));
      return;
    }
    const repeated = duplicate?.((parsed.data as { id: string }).id, `${file}:${lineNumber}`, `line ${lineNumber}`);
    if (repeated !== undefined) problems.push(repeated);
    else entries.push({ line: lineNumber, row: parsed.data });
  });
  if (problems.length > 0) throw rowProblemsError(file, problems);
  if (entries.length === 0) throw new InputError(`${file}: no rows`);
  return entries;
}

/** Parses each line of a JSONL file with `schema`; throws one InputError naming every bad line (file:line: field "x": why). */
export function readJsonlRows<Schema extends z.ZodType>(file: string, schema: Schema, options: { uniqueIds?: boolean } = {}): z.infer<Schema>[] {
  return readJsonlEntries(file, schema, options).map((entry) => entry.row);
}

/**
 * Throws when rows share an id, naming every repeat: episodes are keyed by task id, so a duplicate would be silently
 * merged. With `lines` (each row's line in the file) the error names both lines, else both row numbers.
 */
export function assertUniqueIds(file: string, rows: readonly { id: string }[], lines?: readonly number[]): void {
  const duplicate = duplicateIdChecker();
  const problems = rows.flatMap((row, index) => {
    const location = lines ? `${file}:${lines[index]}` : `${file}: row ${index + 1}`;
    return duplicate(row.id, location, lines ? `line ${lines[index]}` : `row ${index + 1}`) ?? [];
  });
  if (problems.length > 0) throw rowProblemsError(file, problems);
}

/** Reads rows that carry an `id` and refuses a repeated one, naming both lines. */
export function readUniqueJsonlRows<Schema extends z.ZodType<{ id: string }, unknown>>(file: string, schema: Schema): z.infer<Schema>[] {
  return readJsonlEntries(file, schema, { uniqueIds: true }).map((entry) => entry.row);
}

/** Tasks from generic rows: the question is the instruction, the whole row is the metadata. */
export function qaRowsToTasks(rows: readonly QaRow[]): Task[] {
  return rows.map((row) => ({ id: row.id, instruction: row.question, metadata: { ...row } }));
}

/** Reads a user's `--data` JSONL file of `{id, question, ground_truth, ...}` rows into Tasks. */
export function loadQaTasks(file: string): Task[] {
  return qaRowsToTasks(readUniqueJsonlRows(file, QaRowSchema));
}
