/**
 * One company's tables in SQLite (better-sqlite3): built in a scratch database, serialized, and queried
 * read-only (`query_only` on) in a separate query process with a time limit and a memory cap
 * (sql-query-pool.ts), so no statement can write and no query can stall the agent's event loop.
 */
import Database from "better-sqlite3";
import { checkSelectQuery, maskQuoted } from "./check-select-query.js";
import { parseCell, type CellValue } from "./parse-cell.js";
import type { SourceTable } from "./source-table.js";
import { sqlIdentifier, uniqueColumnNames } from "./sql-identifier.js";
import type { QueryLimits, SqlQueryPool } from "./sql-query-pool.js";

/** A column as stored: its SQL name, the header it came from, and its type. */
export interface StoredColumn {
  name: string;
  header: string;
  /** "number" (every value numeric), "percent" (numeric, written with %), "text", or "mixed". */
  type: "number" | "percent" | "text" | "mixed";
  /** Distinct values of a text or mixed column (rLLM's unique_vals_per_col), at most `maxDistinctValues`. */
  distinctValues?: string[];
}

export interface StoredTable {
  name: string;
  sqlName: string;
  columns: StoredColumn[];
  rowCount: number;
  metadata: Record<string, string>;
}

/** Rows a query may return; more is refused so the model narrows its query instead of reading a dump. */
export const maxResultRows = 100;
/** Characters a query's rows may take as JSON: rLLM's cap on one tool output. */
export const maxResultCharacters = 8000;
// Time one query may run, in milliseconds; FinQA queries take about a millisecond.
const defaultQueryTimeoutMs = 5000;
// Enough to show a table's row labels without flooding the context.
const maxDistinctValues = 50;

/** How a store runs its queries. */
export interface TableStoreOptions {
  /** Per-query time limit in milliseconds (default 5,000). */
  queryTimeoutMs?: number;
  /** The query processes (the run's, company-tables.ts). */
  pool: SqlQueryPool;
}

/** The rejection of `query`, with a message meant for the model (the tool returns it as text). */
export class QueryRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QueryRefusedError";
  }
}

/** The tables of one company, queryable read-only. */
export class TableStore {
  private readonly byAlias = new Map<string, StoredTable>();
  private readonly limits: QueryLimits;

  private constructor(
    readonly company: string,
    private readonly tables: StoredTable[],
    private readonly pool: SqlQueryPool,
    private readonly databaseId: number,
    queryTimeoutMs: number,
  ) {
    this.limits = { timeoutMs: queryTimeoutMs, maxRows: maxResultRows, maxCharacters: maxResultCharacters };
    for (const table of tables) {
      for (const alias of [table.name, table.sqlName, `${table.name}.json`]) this.byAlias.set(alias.toLowerCase(), table);
    }
  }

  /** Loads `tables` into a fresh in-memory database and hands its bytes to the query processes. */
  static build(company: string, sourceTables: readonly SourceTable[], options: TableStoreOptions): TableStore {
    const scratch = new Database(":memory:");
    const stored: StoredTable[] = [];
    const usedNames = new Set<string>();
    for (const source of sourceTables) {
      let sqlName = sqlIdentifier(source.name, "table");
      for (let suffix = 2; usedNames.has(sqlName); suffix++) sqlName = `${sqlIdentifier(source.name, "table")}_${suffix}`;
      usedNames.add(sqlName);
      stored.push(writeTable(scratch, source, sqlName));
    }
    const bytes = scratch.serialize();
    scratch.close();
    return new TableStore(company, stored, options.pool, options.pool.register(bytes), options.queryTimeoutMs ?? defaultQueryTimeoutMs);
  }

  /** The names the agent uses, in load order. */
  tableNames(): string[] {
    return this.tables.map((table) => table.name);
  }

  /** The table called `name` (case-insensitive; its SQL name and a `.json` suffix work too). */
  findTable(name: string): StoredTable | undefined {
    return this.byAlias.get(name.trim().toLowerCase());
  }

  /**
   * Runs a guarded SELECT; resolves with its rows, or rejects with QueryRefusedError (a message that
   * helps fix the query, including a time limit reached) or, when `signal` aborts, with its reason.
   */
  async query(table: StoredTable, query: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const check = checkSelectQuery(query, (name) => this.findTable(name)?.sqlName);
    if (!check.isAllowed) throw new QueryRefusedError(check.message);
    const mistake = findLiteralColumnMistake(check.sql, table, new Set(this.tables.map((stored) => stored.sqlName.toLowerCase())));
    if (mistake) throw new QueryRefusedError(mistake);
    const outcome = await this.pool.run(this.databaseId, check.sql, this.limits, signal);
    switch (outcome.kind) {
      case "rows":
        return outcome.rows;
      case "refused":
        throw new QueryRefusedError(`query refused: ${outcome.message}`);
      case "sql-error":
        throw new QueryRefusedError(this.explainSqlError(table, outcome.message));
      case "timeout":
        throw new QueryRefusedError(
          `query stopped: it ran past the ${outcome.timeoutMs / 1000} s time limit; filter earlier and avoid joining a table to itself many times`,
        );
      case "crashed":
        throw new QueryRefusedError(`query failed: ${outcome.message}`);
    }
  }

  /** Frees the database in the query processes. */
  close(): void {
    this.pool.unregister(this.databaseId);
  }

  private explainSqlError(table: StoredTable, message: string): string {
    const columns = table.columns.map((column) => quoteIfNeeded(column.name)).join(", ");
    if (/no such table/i.test(message)) return `SQL error: ${message}. Tables of ${this.company}: ${this.tableNames().join(", ")}`;
    return `SQL error: ${message}. Columns of ${table.name}: ${columns}`;
  }
}

function writeTable(database: Database.Database, source: SourceTable, sqlName: string): StoredTable {
  // A row wider than the header keeps its extra cells, under col_<i> names; SQLite needs one column at least.
  const width = source.rows.reduce((widest, row) => Math.max(widest, row.length), Math.max(1, source.header.length));
  const header = Array.from({ length: width }, (_, index) => source.header[index] ?? "");
  const names = uniqueColumnNames(header);
  const parsedRows = source.rows.map((row) => names.map((_, index) => parseCell(row[index])));
  database.exec(`CREATE TABLE "${sqlName}" (${names.map((name) => `"${name}"`).join(", ")})`);
  const insert = database.prepare(`INSERT INTO "${sqlName}" VALUES (${names.map(() => "?").join(", ")})`);
  database.transaction(() => {
    for (const row of parsedRows) insert.run(row.map((cell) => cell.value));
  })();
  // Every parsed row, like the header, has one cell per name.
  const columns = names.map((name, index): StoredColumn => {
    const cells = parsedRows.map((row) => row[index]!).filter((cell) => cell.value !== null);
    const numeric = cells.filter((cell) => typeof cell.value === "number");
    const type =
      numeric.length === cells.length ? (numeric.some((cell) => cell.isPercent) ? "percent" : "number") : numeric.length === 0 ? "text" : "mixed";
    const column: StoredColumn = { name, header: header[index]!, type };
    if (type === "text" || type === "mixed") column.distinctValues = distinct(cells.map((cell) => cell.value));
    return column;
  });
  return { name: source.name, sqlName, columns, rowCount: parsedRows.length, metadata: source.metadata };
}

function distinct(values: CellValue[]): string[] {
  return [...new Set(values.map(String))].slice(0, maxDistinctValues);
}

const bareIdentifier = /^[a-z_][a-z0-9_]*$/;

function quoteIfNeeded(name: string): string {
  return bareIdentifier.test(name) ? name : `"${name}"`;
}

/**
 * SQLite reads an unknown "double-quoted" name as a string, and `SELECT '2015'` or `SELECT 2015` as
 * a constant: the query "works" and returns nonsense. Catch those with a message naming the columns.
 */
function findLiteralColumnMistake(sql: string, table: StoredTable, tableNames: ReadonlySet<string>): string | undefined {
  const columnNames = new Set(table.columns.map((column) => column.name.toLowerCase()));
  const columns = table.columns.map((column) => quoteIfNeeded(column.name)).join(", ");
  for (const match of sql.matchAll(/(\bas\s+)?"((?:[^"]|"")+)"/gi)) {
    const name = match[2]!.replace(/""/g, '"').toLowerCase(); // group 2 is not optional
    if (match[1] || columnNames.has(name) || tableNames.has(name)) continue;
    return `query refused: "${match[2]}" is not a column of ${table.name}, so SQLite would read it as a text constant. Columns: ${columns}`;
  }
  const masked = maskQuoted(sql) ?? sql;
  const selectList = /\bselect\s+([\s\S]*?)\bfrom\b/i.exec(masked);
  if (!selectList) return undefined;
  const selected = selectList[1]!; // the group is not optional
  const start = selectList.index + selectList[0].indexOf(selected);
  const written = sql.slice(start, start + selected.length);
  for (const match of written.matchAll(/'((?:[^']|'')*)'|(?<![\w."])(\d+)(?![\w."])/g)) {
    const literal = (match[1] ?? match[2])!.toLowerCase(); // one of the two alternatives matched
    if (!columnNames.has(literal)) continue;
    return `query refused: ${match[0]} in the SELECT list is a constant, not the column; write "${literal}" (double quotes) to read the column`;
  }
  return undefined;
}
