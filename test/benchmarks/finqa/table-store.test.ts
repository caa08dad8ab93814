// The SQL guard and the read-only store: focused SELECTs run; writes, PRAGMA, wildcards, self-referencing CTEs, oversized
// results and runaway queries (time limit, abort, memory cap) are refused or stopped without blocking the event loop.
import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SqlQueryPool } from "../../../benchmarks/finqa/sql-query-pool.js";
import { QueryRefusedError, TableStore, maxResultCharacters, maxResultRows } from "../../../benchmarks/finqa/table-store.js";
import { originalCompanyTables, readOriginalFinqaRows } from "../../../benchmarks/finqa/original-format.js";
import { packagePath } from "../../../src/core/package-root.js";

const companies = originalCompanyTables(readOriginalFinqaRows(packagePath("benchmarks/finqa/data/finqa_sample.jsonl")));
const queries = new SqlQueryPool();
const store = TableStore.build("ETR", companies.get("etr")!, { pool: queries });
const cmcsa = TableStore.build("CMCSA", companies.get("cmcsa")!, { pool: queries });
afterAll(() => {
  store.close();
  cmcsa.close();
  queries.close();
});
const revenue = store.findTable("fy2016_page_23")!;

/** Everything a write could change: the schema (main and temp) and every table's rows. */
async function contents(target: TableStore): Promise<string> {
  const schema = await Promise.all(
    ["sqlite_master", "sqlite_temp_master"].map((catalog) =>
      target.query(revenue, `SELECT type, name, sql FROM ${catalog} WHERE type IN ('table', 'view', 'trigger', 'index')`),
    ),
  );
  const rows = await Promise.all(
    target.tableNames().map((name) => {
      const table = target.findTable(name)!;
      const columns = table.columns.map((column) => `"${column.name}"`).join(", ");
      return target.query(table, `SELECT ${columns} FROM "${table.sqlName}" LIMIT 100`);
    }),
  );
  return JSON.stringify({ schema, rows });
}

describe("TableStore queries", () => {
  it("lists a company's report pages as tables and answers a focused SELECT with parsed numbers", async () => {
    expect(store.tableNames()).toEqual(["fy2016_page_23", "fy2017_page_372"]);
    const rows = await store.query(revenue, "SELECT col_0, amount_in_millions FROM fy2016_page_23 WHERE col_0 LIKE '%net revenue%'");
    expect(rows).toEqual([
      { col_0: "2014 net revenue", amount_in_millions: 5735 },
      { col_0: "2015 net revenue", amount_in_millions: 5829 },
    ]);
  });

  it("stores FinQA's doubled negatives as negative numbers", async () => {
    const rows = await store.query(revenue, "SELECT amount_in_millions FROM fy2016_page_23 WHERE col_0 = 'miso deferral'");
    expect(rows).toEqual([{ amount_in_millions: -35 }]);
  });

  it("accepts the table name in any case, quoted, or with a .json suffix", async () => {
    for (const reference of ["FY2016_PAGE_23", '"fy2016_page_23"', "fy2016_page_23.json"]) {
      expect(await store.query(revenue, `SELECT count(*) AS n FROM ${reference}`)).toEqual([{ n: 8 }]);
    }
  });

  it("reads year columns written in double quotes, and refuses a year written as a constant", async () => {
    const table = cmcsa.findTable("fy2015_page_112")!;
    expect(await cmcsa.query(table, `SELECT "2015" FROM fy2015_page_112 WHERE in_millions = 'balance december 31'`)).toEqual([{ 2015: 1136 }]);
    await expect(cmcsa.query(table, "SELECT 2015 FROM fy2015_page_112 WHERE in_millions = 'balance december 31'")).rejects.toThrow(
      /constant, not the column; write "2015"/,
    );
    await expect(cmcsa.query(table, `SELECT "2016" FROM fy2015_page_112 WHERE in_millions = 'x'`)).rejects.toThrow(
      /"2016" is not a column .* Columns: in_millions, "2015", "2014", "2013"/,
    );
  });

  it("lists the real column names when a column does not exist", async () => {
    await expect(store.query(revenue, "SELECT amount FROM fy2016_page_23 WHERE col_0 = 'other'")).rejects.toThrow(
      /no such column: amount\. Columns of fy2016_page_23: col_0, amount_in_millions/,
    );
  });
});

interface GuardCase {
  name: string;
  query: string;
  refusal: string;
}
const guardCases: GuardCase[] = JSON.parse(readFileSync(new URL("./guard-refusals.json", import.meta.url), "utf8"));
const allowedCases: { name: string; query: string }[] = JSON.parse(readFileSync(new URL("./guard-allowed.json", import.meta.url), "utf8"));

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
    [
      "a result over the tool output cap",
      "SELECT printf('%500s', a.col_0) AS wide FROM fy2016_page_23 a, fy2016_page_23 b WHERE 1",
      new RegExp(`result is over ${maxResultCharacters} characters`),
    ],
    ...guardCases.map(({ name, query, refusal }): [string, string, RegExp] => [name, query, new RegExp(refusal)]),
  ];

  it.each(refused)("refuses %s with a message and leaves the store unchanged", async (_, query, message) => {
    const before = await contents(store);
    await expect(store.query(revenue, query)).rejects.toThrow(QueryRefusedError);
    await expect(store.query(revenue, query)).rejects.toThrow(message);
    expect(await contents(store)).toBe(before);
  });

  it("keeps a ';' inside a string literal as data, not a second statement", async () => {
    expect(await store.query(revenue, "SELECT count(*) AS n FROM fy2016_page_23 WHERE col_0 = 'a; DROP TABLE x'")).toEqual([{ n: 0 }]);
  });

  it.each(allowedCases)("runs $name", async ({ query }) => {
    expect(await store.query(revenue, query)).toEqual(expect.any(Array));
  });

  it("refuses pragma and other table-valued functions in the query process, however they are quoted (issue #29)", async () => {
    // Reaching past the guard on purpose: the compiled program, not the text, decides.
    const pool = new SqlQueryPool({ size: 1 });
    const scratch = new Database(":memory:");
    scratch.exec("CREATE TABLE kept (a); INSERT INTO kept VALUES (1)");
    const databaseId = pool.register(scratch.serialize());
    scratch.close();
    const limits = { timeoutMs: 30_000, maxRows: 10, maxCharacters: 1000 };
    const refusal = { kind: "refused", message: expect.stringMatching(/^table-valued functions .* are not allowed/) };
    try {
      for (const statement of [
        "SELECT name FROM [pragma_database_list]",
        "SELECT name FROM 'pragma_database_list'",
        'SELECT name FROM "PRAGMA_Database_List"',
        "SELECT name FROM `pragma_database_list`",
        "SELECT a FROM kept WHERE a IN (SELECT cid FROM pragma_table_info('kept'))",
        "SELECT value FROM json_each('[1, 2]')",
      ]) {
        expect(await pool.run(databaseId, statement, limits), statement).toEqual(refusal);
      }
      expect(await pool.run(databaseId, "SELECT a FROM kept WHERE a = 1", limits)).toEqual({ kind: "rows", rows: [{ a: 1 }] });
    } finally {
      pool.close();
    }
  });

  it("refuses writes in the query process even when the text guard is bypassed", async () => {
    // Reaching past the guard on purpose: the query process must refuse on its own.
    const pool = new SqlQueryPool({ size: 1 });
    const scratch = new Database(":memory:");
    scratch.exec("CREATE TABLE kept (a)");
    const databaseId = pool.register(scratch.serialize());
    scratch.close();
    const limits = { timeoutMs: 30_000, maxRows: 10, maxCharacters: 1000 };
    try {
      for (const statement of ["INSERT INTO kept (a) VALUES ('x')", "CREATE TEMP TABLE sneaky (a)", "DELETE FROM kept", "ATTACH ':memory:' AS other"]) {
        expect(await pool.run(databaseId, statement, limits), statement).toEqual({ kind: "refused", message: "only SELECT queries are allowed" });
      }
      expect(await pool.run(databaseId, "SELECT name FROM sqlite_temp_master", limits)).toEqual({ kind: "rows", rows: [] });
    } finally {
      pool.close();
    }
  });
});

describe("TableStore runaway queries", () => {
  // Ten copies of an 8-row table: 8^10 rows to count, minutes of work without a time limit.
  const tenWayJoin = `SELECT count(*) AS n FROM ${Array.from({ length: 10 }, (_, index) => `fy2016_page_23 t${index}`).join(", ")}`;

  it("stops a 10-way self cross join at the time limit, and the next query runs", async () => {
    const limited = TableStore.build("ETR", companies.get("etr")!, { pool: queries, queryTimeoutMs: 300 });
    const table = limited.findTable("fy2016_page_23")!;
    try {
      await expect(limited.query(table, tenWayJoin)).rejects.toThrow(/query stopped: it ran past the 0.3 s time limit/);
      expect(await limited.query(table, "SELECT amount_in_millions FROM fy2016_page_23 WHERE col_0 = 'miso deferral'")).toEqual([
        { amount_in_millions: -35 },
      ]);
    } finally {
      limited.close();
    }
  }, 60_000);

  it("stops a running query when its signal aborts, with the signal's reason", async () => {
    const pool = new SqlQueryPool({ size: 1 });
    const patient = TableStore.build("ETR", companies.get("etr")!, { pool, queryTimeoutMs: 600_000 });
    const table = patient.findTable("fy2016_page_23")!;
    const controller = new AbortController();
    const reason = new Error("episode over");
    try {
      // Abort once the query is running: a started process answers this one first.
      await patient.query(table, "SELECT count(*) AS n FROM fy2016_page_23 WHERE 1");
      const running = patient.query(table, tenWayJoin, controller.signal);
      setTimeout(() => controller.abort(reason), 200);
      await expect(running).rejects.toBe(reason);
      expect(pool.killed).toBe(1);
    } finally {
      pool.close();
    }
  }, 60_000);

  it.runIf(process.platform === "linux" && existsSync("/usr/bin/prlimit"))(
    "refuses a value larger than the query process's memory cap",
    async () => {
      const roomy = TableStore.build("ETR", companies.get("etr")!, { pool: queries, queryTimeoutMs: 120_000 });
      const table = roomy.findTable("fy2016_page_23")!;
      // Nine tenfold replaces build a 10^9-character string from one character.
      const grow = (inner: string, depth: number): string => (depth === 0 ? inner : grow(`replace(${inner}, 'x', 'xxxxxxxxxx')`, depth - 1));
      try {
        await expect(roomy.query(table, `SELECT length(${grow("'x'", 9)}) AS n FROM fy2016_page_23 WHERE col_0 = 'miso deferral'`)).rejects.toThrow(
          /needs more memory than a query may use/,
        );
      } finally {
        roomy.close();
      }
    },
    180_000,
  );
});
