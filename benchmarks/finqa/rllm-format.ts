/**
 * rLLM's FinQA dataset (`rLLM/finqa` data.tar.gz): `<split>_finqa.csv` questions about SEC 10-K filings
 * and `company_tables/<company>/*.json` files mapping table names to pandas-JSON tables.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { assertUniqueIds, describeIssues, InputError, parseJsonFile, type Task } from "rllm-ts/core";
import { jsonKeyOrder } from "./json-key-order.js";
import { type CsvRecord, parseCsv } from "./parse-csv.js";
import type { SourceTable } from "./source-table.js";
import type { TableSource } from "./table-source.js";

/** A question row of `<split>_finqa.csv` (columns as in rLLM's prepare_finqa_data.py). */
export const RllmFinqaRowSchema = z
  .object({
    id: z.string().optional(),
    user_query: z.string().min(1, "the question shown to the agent is empty"),
    question: z.string().optional(),
    answer: z.string().min(1, "the gold answer is empty"),
    company: z.string().min(1),
    table_name: z.string().transform(parseNameList),
    question_type: z.string().default(""),
    columns_used_json: z.string().optional(),
    rows_used_json: z.string().optional(),
    explanation: z.string().optional(),
  })
  .passthrough();
export type RllmFinqaRow = z.infer<typeof RllmFinqaRowSchema>;

/** `["a", "b"]` (JSON), `['a', 'b']` (a Python list), or one bare name. */
function parseNameList(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (!trimmed.startsWith("[")) return [trimmed];
  try {
    return z.array(z.string()).parse(JSON.parse(trimmed));
  } catch {
    return [...trimmed.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((match) => (match[1] ?? match[2])!); // one of the two quoted alternatives matched
  }
}

/** Reads a question CSV; errors name the file, line and column. */
export function readRllmFinqaRows(file: string): RllmFinqaRow[] {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  let records: CsvRecord[];
  try {
    records = parseCsv(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(`${file}: ${(error as Error).message}`);
  }
  const [header, ...body] = records;
  if (!header || body.length === 0) throw new InputError(`${file}: no rows`);
  const problems: string[] = [];
  const rows: RllmFinqaRow[] = [];
  for (const record of body) {
    const object = Object.fromEntries(header.fields.map((name, index) => [name.trim(), record.fields[index] ?? ""]));
    const parsed = RllmFinqaRowSchema.safeParse(object);
    if (parsed.success) rows.push(parsed.data);
    else problems.push(describeIssues(file, record.line, parsed.error));
  }
  if (problems.length > 0) throw new InputError(`${problems.length} bad row(s) in ${file}:\n${problems.slice(0, 10).join("\n")}`);
  return rows;
}

/** Tasks from question rows; ids fall back to `<company>-<line>` and ":" is replaced (episode ids use it). */
export function rllmRowsToTasks(rows: readonly RllmFinqaRow[], file: string, tablesRoot: string): Task[] {
  const source: TableSource = { format: "rllm-finqa", tablesRoot };
  const identified = rows.map((row, index) => ({ ...row, id: (row.id || `${row.company}-${index + 1}`).replaceAll(":", "_") }));
  assertUniqueIds(file, identified);
  return identified.map((row) => ({
    id: row.id,
    instruction: row.user_query,
    metadata: {
      ...row,
      question: row.user_query,
      core_question: row.question ?? row.user_query,
      ground_truth: row.answer,
      expected_tables: row.table_name,
      table_source: source,
    },
  }));
}

/** The folder of `company` under `tablesRoot`, matched case-insensitively; undefined when absent. */
export function findCompanyFolder(tablesRoot: string, company: string): string | undefined {
  if (!existsSync(tablesRoot)) return undefined;
  const wanted = company.trim().toLowerCase();
  const entry = readdirSync(tablesRoot, { withFileTypes: true }).find(
    (candidate) => candidate.isDirectory() && candidate.name.toLowerCase() === wanted,
  );
  return entry ? path.join(tablesRoot, entry.name) : undefined;
}

/** Companies that have a tables folder (for error messages). */
export function listCompanies(tablesRoot: string): string[] {
  if (!existsSync(tablesRoot)) return [];
  return readdirSync(tablesRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

const TableEntrySchema = z
  .object({ table: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]) })
  .passthrough();

/**
 * Every table of a company folder. A JSON file either maps table names to `{table, ...metadata}`
 * (rLLM's tables_cleaned_all_companies.json) or is one such entry named after the file.
 */
export function readRllmCompanyTables(folder: string): SourceTable[] {
  const tables: SourceTable[] = [];
  for (const fileName of readdirSync(folder).filter((name) => name.endsWith(".json")).sort()) {
    const file = path.join(folder, fileName);
    const content = parseJsonFile(file);
    const single = TableEntrySchema.safeParse(content);
    const entries: [string, unknown][] = single.success
      ? [[fileName.replace(/\.json$/, ""), content]]
      : Object.entries(z.record(z.string(), z.unknown()).parse(content));
    for (const [name, entry] of entries) {
      const parsed = TableEntrySchema.safeParse(entry);
      if (!parsed.success) throw new InputError(describeIssues(`${file} table "${name}"`, undefined, parsed.error));
      const { table, ...metadata } = parsed.data;
      tables.push({ name, ...readPandasTable(table, `${file} table "${name}"`), metadata: stringValues(metadata) });
    }
  }
  return tables;
}

/** A pandas `to_json` table in the "columns" (default), "split", "records" or "table" orient. */
function readPandasTable(table: unknown, where: string): Pick<SourceTable, "header" | "rows"> {
  let value = table;
  // Only a string keeps the written column order; an already-parsed object has integer-like keys moved first.
  const keyOrder = typeof table === "string" ? jsonKeyOrder(table) : undefined;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new InputError(`${where}: the table is not valid JSON (${(error as Error).message})`);
    }
  }
  if (Array.isArray(value)) return fromRecords(value, keyOrder);
  const object = z.record(z.string(), z.unknown()).parse(value);
  if (Array.isArray(object.columns) && Array.isArray(object.data)) {
    return { header: object.columns.map(String), rows: (object.data as unknown[]).map((row) => (Array.isArray(row) ? row : [row])) };
  }
  if (object.schema !== undefined && Array.isArray(object.data)) return fromRecords(object.data);
  // "columns": {column: {rowIndex: value}}; a non-numeric row index is kept as a leading row_label column.
  const header = inWrittenOrder(Object.keys(object), keyOrder);
  const columns = header.map((name) => z.record(z.string(), z.unknown()).parse(object[name] ?? {}));
  const indexKeys = [...new Set(columns.flatMap((column) => Object.keys(column)))];
  const isNumericIndex = indexKeys.every((key) => /^\d+$/.test(key));
  if (isNumericIndex) indexKeys.sort((left, right) => Number(left) - Number(right));
  const rows = indexKeys.map((key) => columns.map((column) => column[key] ?? null));
  return isNumericIndex
    ? { header, rows }
    : { header: ["row_label", ...header], rows: rows.map((row, index) => [indexKeys[index], ...row]) };
}

function fromRecords(records: unknown[], keyOrder?: string[]): Pick<SourceTable, "header" | "rows"> {
  const objects = records.map((record) => z.record(z.string(), z.unknown()).parse(record));
  const header = inWrittenOrder([...new Set(objects.flatMap((object) => Object.keys(object)))], keyOrder);
  return { header, rows: objects.map((object) => header.map((name) => object[name] ?? null)) };
}

/** `keys` sorted by their position in `keyOrder` (keys it lacks keep their order, at the end). */
function inWrittenOrder(keys: string[], keyOrder: string[] | undefined): string[] {
  if (!keyOrder) return keys;
  const position = (key: string) => (keyOrder.includes(key) ? keyOrder.indexOf(key) : keyOrder.length);
  return [...keys].sort((left, right) => position(left) - position(right));
}

function stringValues(metadata: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]),
  );
}
