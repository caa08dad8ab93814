/** Reads the rows of one downloaded dataset file by its extension (parquet, JSONL, CSV); a bad file or row is named. */
import { parse as parseCsv } from "csv-parse/sync";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { InputError } from "../core/errors/input-error.js";

/**
 * The rows of `body`, read by `file`'s extension. A file that cannot be read is an InputError naming `where` and, for
 * parquet, the rows of the row group that failed (a truncated or corrupted page); JSONL and CSV errors name the line.
 */
export async function readHubFileRows(where: string, file: string, body: ArrayBuffer): Promise<Record<string, unknown>[]> {
  if (file.endsWith(".parquet")) return readParquetRows(where, body);
  const text = new TextDecoder("utf-8").decode(body);
  if (file.endsWith(".jsonl")) return readJsonlText(where, text);
  if (file.endsWith(".csv")) return readCsvText(where, text);
  throw new InputError(`${where}: no reader for this file type (parquet, .jsonl and .csv are read)`);
}

async function readParquetRows(where: string, body: ArrayBuffer): Promise<Record<string, unknown>[]> {
  let metadata: ReturnType<typeof parquetMetadata>;
  try {
    metadata = parquetMetadata(body);
  } catch (error) {
    // The footer holds the row count, so a file cut short names no row: it is unreadable from its first.
    throw new InputError(`${where}: row 0: not a readable parquet file, truncated or not parquet (${(error as Error).message})`);
  }
  const rows: Record<string, unknown>[] = [];
  let rowStart = 0;
  // Row group by row group, so a corrupted page is reported with the rows it holds.
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    try {
      rows.push(...((await parquetReadObjects({ file: body, metadata, rowStart, rowEnd })) as Record<string, unknown>[]));
    } catch (error) {
      throw new InputError(`${where}: row ${rowStart}: rows ${rowStart}-${rowEnd - 1} cannot be read (${(error as Error).message})`);
    }
    rowStart = rowEnd;
  }
  return rows;
}

function readJsonlText(where: string, text: string): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InputError(`${where}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InputError(`${where}:${index + 1}: a row must be a JSON object`);
    rows.push(value as Record<string, unknown>);
  });
  return rows;
}

function readCsvText(where: string, text: string): Record<string, unknown>[] {
  try {
    // Header row names the columns; quoted cells keep their newlines (GPQA's questions span lines).
    return parseCsv(text, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, unknown>[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new InputError(`${where}${line ? `:${line}` : ""}: not valid CSV (${(error as Error).message})`);
  }
}
