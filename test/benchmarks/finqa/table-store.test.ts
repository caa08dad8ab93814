// The SQL guard and the read-only store: focused SELECTs run; writes, ATTACH, PRAGMA, several statements and oversized results are refused.
import { afterAll, describe, expect, it } from "vitest";
import { QueryRefusedError, TableStore, maxResultRows } from "../../../benchmarks/finqa/table-store.js";
import { originalCompanyTables, readOriginalFinqaRows } from "../../../benchmarks/finqa/original-format.js";
import { packagePath } from "../../../src/core/package-root.js";

const companies = originalCompanyTables(readOriginalFinqaRows(packagePath("benchmarks/finqa/data/finqa_sample.jsonl")));
const store = TableStore.build("ETR", companies.get("etr")!);
const cmcsa = TableStore.build("CMCSA", companies.get("cmcsa")!);
afterAll(() => {
  store.close();
  cmcsa.close();
});
const revenue = store.findTable("fy2016_page_23")!;

/** Everything a write could change: the schema (main and temp) and every table's rows. */
function contents(target: TableStore): string {
  const schema = ["sqlite_master", "sqlite_temp_master"].map((catalog) =>
    target.query(revenue, `SELECT type, name, sql FROM ${catalog} WHERE type IN ('table', 'view', 'trigger', 'index')`),
  );
  const rows = target.tableNames().map((name) => {
    const table = target.findTable(name)!;
    const columns = table.columns.map((column) => `"${column.name}"`).join(", ");
    return target.query(table, `SELECT ${columns} FROM "${table.sqlName}" LIMIT 100`);
  });
  return JSON.stringify({ schema, rows });
}

describe("TableStore queries", () => {
  it("lists a company's report pages as tables and answers a focused SELECT with parsed numbers", () => {
    expect(store.tableNames()).toEqual(["fy2016_page_23", "fy2017_page_372"]);
    const rows = store.query(revenue, "SELECT col_0, amount_in_millions FROM fy2016_page_23 WHERE col_0 LIKE '%net revenue%'");
    expect(rows).toEqual([
      { col_0: "2014 net revenue", amount_in_millions: 5735 },
      { col_0: "2015 net revenue", amount_in_millions: 5829 },
    ]);
  });

  it("stores FinQA's doubled negatives as negative numbers", () => {
    const rows = store.query(revenue, "SELECT amount_in_millions FROM fy2016_page_23 WHERE col_0 = 'miso deferral'");
    expect(rows).toEqual([{ amount_in_millions: -35 }]);
  });

  it("accepts the table name in any case, quoted, or with a .json suffix", () => {
    for (const reference of ["FY2016_PAGE_23", '"fy2016_page_23"', "fy2016_page_23.json"]) {
      expect(store.query(revenue, `SELECT count(*) AS n FROM ${reference}`)).toEqual([{ n: 8 }]);
    }
  });

  it("reads year columns written in double quotes, and refuses a year written as a constant", () => {
    const table = cmcsa.findTable("fy2015_page_112")!;
    expect(cmcsa.query(table, `SELECT "2015" FROM fy2015_page_112 WHERE in_millions = 'balance december 31'`)).toEqual([{ 2015: 1136 }]);
    expect(() => cmcsa.query(table, "SELECT 2015 FROM fy2015_page_112 WHERE in_millions = 'balance december 31'")).toThrow(
      /constant, not the column; write "2015"/,
    );
    expect(() => cmcsa.query(table, `SELECT "2016" FROM fy2015_page_112 WHERE in_millions = 'x'`)).toThrow(
      /"2016" is not a column .* Columns: in_millions, "2015", "2014", "2013"/,
    );
  });

  it("lists the real column names when a column does not exist", () => {
    expect(() => store.query(revenue, "SELECT amount FROM fy2016_page_23 WHERE col_0 = 'other'")).toThrow(
      /no such column: amount\. Columns of fy2016_page_23: col_0, amount_in_millions/,
    );
  });
});

describe("TableStore refusals", () => {
  const refused: [string, string, RegExp][] = [
    ["insert", "INSERT INTO fy2016_page_23 (col_0) VALUES ('x')", /only SELECT/],
    ["update", "UPDATE fy2016_page_23 SET col_0 = 'x' WHERE 1", /only SELECT/],
    ["delete", "DELETE FROM fy2016_page_23 WHERE 1", /only SELECT/],
    ["drop", "DROP TABLE fy2016_page_23", /only SELECT/],
    ["delete inside a CTE", "WITH gone AS (SELECT 1) DELETE FROM fy2016_page_23 WHERE 1", /DELETE is not allowed/],
    ["temp table", "CREATE TEMP TABLE copy AS SELECT col_0 FROM fy2016_page_23 WHERE 1", /only SELECT/],
    ["attach", "ATTACH DATABASE '/tmp/finqa-attack.db' AS attack", /only SELECT/],
    ["attach after a select", "SELECT col_0 FROM fy2016_page_23 WHERE 1; ATTACH ':memory:' AS attack", /only one statement/],
    ["pragma", "PRAGMA writable_schema = ON", /only SELECT/],
    ["pragma after a select", "SELECT col_0 FROM fy2016_page_23 WHERE 1;PRAGMA query_only = OFF", /only one statement/],
    ["two statements", "SELECT col_0 FROM fy2016_page_23 WHERE 1; DROP TABLE fy2016_page_23", /only one statement/],
    ["a comment", "SELECT col_0 FROM fy2016_page_23 WHERE 1 -- DROP TABLE x", /comments are not allowed/],
    ["load_extension", "SELECT load_extension('/tmp/x.so') FROM fy2016_page_23 WHERE 1", /LOAD_EXTENSION is not allowed/],
    ["a recursive CTE", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n WHERE i > 0", /RECURSIVE is not allowed/],
    ["a gigabyte blob", "SELECT length(zeroblob(1000000000)) FROM fy2016_page_23 WHERE 1", /ZEROBLOB is not allowed/],
    ["SELECT *", "SELECT * FROM fy2016_page_23 WHERE col_0 = 'other'", /SELECT \* is not allowed/],
    ["an unfocused query", "SELECT col_0 FROM fy2016_page_23", /must be focused/],
    ["no FROM", "SELECT 1 WHERE 1", /needs a FROM/],
    ["an empty query", "  ;  ", /empty/],
    ["an unterminated quote", "SELECT col_0 FROM fy2016_page_23 WHERE col_0 = 'x", /unterminated quote/],
    [
      "an oversized result",
      "SELECT a.col_0 FROM fy2016_page_23 a, fy2016_page_23 b, fy2016_page_23 c WHERE 1",
      new RegExp(`more than ${maxResultRows} rows`),
    ],
  ];

  it.each(refused)("refuses %s with a message and leaves the store unchanged", (_, query, message) => {
    const before = contents(store);
    let thrown: unknown;
    try {
      store.query(revenue, query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(QueryRefusedError);
    expect((thrown as Error).message).toMatch(message);
    expect(contents(store)).toBe(before);
  });

  it("keeps a ';' inside a string literal as data, not a second statement", () => {
    expect(store.query(revenue, "SELECT count(*) AS n FROM fy2016_page_23 WHERE col_0 = 'a; DROP TABLE x'")).toEqual([{ n: 0 }]);
  });

  it("cannot write through its connection even when the query guard is bypassed", () => {
    // Reaching past the guard on purpose: the connection itself must refuse (read-only + query_only).
    const database = (store as unknown as { database: import("better-sqlite3").Database }).database;
    const before = contents(store);
    for (const statement of [
      "INSERT INTO fy2016_page_23 (col_0) VALUES ('x')",
      "CREATE TEMP TABLE sneaky (a)",
      "DELETE FROM fy2016_page_23",
    ]) {
      expect(() => database.prepare(statement).run(), statement).toThrow(/readonly|read-only|query_only/i);
    }
    expect(contents(store)).toBe(before);
  });
});
