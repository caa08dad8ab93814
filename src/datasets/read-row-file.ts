/** Reads a user's rows from JSONL, a JSON array, CSV (with a header) or parquet, each row tagged with where it came from. */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { InputError } from "../core/errors/input-error.js";

/** One raw row and its location for messages: `line` in text files, the 1-based `row` in JSON arrays and parquet. */
export interface LocatedRow {
  value: unknown;
  /** `file:line` or `file: row n`, ready to prefix a message. */
  where: string;
  /** The line or row number. */
  position: number;
  /** Why the row could not be read (a JSONL line that is not JSON), so that it is reported with the other bad rows. */
  unreadable?: string;
}

/** The formats `rllm dataset register` reads, by file extension. */
export const ROW_FILE_EXTENSIONS = [".jsonl", ".json", ".csv", ".parquet"] as const;

/**
 * Every row of `file`, not yet validated; a file that cannot be read or parsed is an InputError naming it, except a
 * JSONL line that is not JSON, which is a row marked `unreadable`.
 */
export async function readRowFile(file: string): Promise<LocatedRow[]> {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(`${file}: is a directory, not a file of rows`);
  const extension = path.extname(file).toLowerCase();
  if (extension === ".parquet") {
    const buffer = readFileSync(file);
    const rows = (await parquetReadObjects({ file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer })) as unknown[];
    return rows.map((value, index) => ({ value: jsonSafe(value), where: `${file}: row ${index + 1}`, position: index + 1 }));
  }
  // Editors on Windows save UTF-8 with a byte-order mark.
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  if (extension === ".jsonl") {
    return text.split("\n").flatMap((line, index) => {
      if (line.trim() === "") return [];
      const located = { where: `${file}:${index + 1}`, position: index + 1 };
      try {
        return [{ value: JSON.parse(line) as unknown, ...located }];
      } catch (error) {
        return [{ value: undefined, ...located, unreadable: `not valid JSON (${(error as Error).message})` }];
      }
    });
  }
  if (extension === ".json") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`${file}: not valid JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(value)) throw new InputError(`${file}: expected a JSON array of rows`);
    return value.map((row, index) => ({ value: row, where: `${file}: row ${index + 1}`, position: index + 1 }));
  }
  if (extension === ".csv") {
    let records: { record: Record<string, string>; info: { lines: number } }[];
    try {
      records = parseCsv(text, { columns: true, info: true, skip_empty_lines: true });
    } catch (error) {
      throw new InputError(`${file}: not valid CSV (${(error as Error).message})`);
    }
    // A cell holding JSON (a messages list, sampled token ids) is parsed; every other cell stays text.
    return records.map(({ record, info }) => ({ value: parseJsonCells(record), where: `${file}:${info.lines}`, position: info.lines }));
  }
  throw new InputError(`${file}: unknown file type "${extension}" (use ${ROW_FILE_EXTENSIONS.join(", ")})`);
}

function parseJsonCells(record: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([key, cell]) => {
      if (!/^\s*[[{]/.test(cell)) return [key, cell];
      try {
        return [key, JSON.parse(cell) as unknown];
      } catch {
        return [key, cell];
      }
    }),
  );
}

/** BigInt (parquet INT64) becomes a number when safe, else a string, at any depth. */
function jsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? (Number.isSafeInteger(Number(item)) ? Number(item) : item.toString()) : item)));
}
