// The SQL query process: holds read-only copies of company databases and runs one query at a time.
// It lives apart from the agent's event loop so that a runaway query can be killed (SIGKILL) without
// stopping the run; the parent sets its time limit and memory cap (sql-query-pool.ts). Plain JavaScript,
// not TypeScript, so that it starts without the tsx loader (about a quarter of the start-up time).
// Messages: SqlRequest in, SqlReply out (sql-query-messages.ts).
import Database from "better-sqlite3";

/** @type {Map<number, import("better-sqlite3").Database>} */
const databases = new Map();

/** @param {number} databaseId @param {Uint8Array} bytes */
function open(databaseId, bytes) {
  const database = new Database(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { readonly: true });
  // A read-only connection still lets TEMP tables be created; query_only forbids every write.
  database.pragma("query_only = ON");
  databases.set(databaseId, database);
}

/** @returns {import("./sql-query-messages.js").SqlOutcome} */
function runQuery(database, sql, limits) {
  let statement;
  try {
    statement = database.prepare(sql);
  } catch (error) {
    return sqlFailure(error);
  }
  // Defence in depth: the parent's text checks should make both impossible.
  if (!statement.reader || !statement.readonly) return { kind: "refused", message: "only SELECT queries are allowed" };
  if (readsVirtualTable(database, sql)) {
    return { kind: "refused", message: "table-valued functions (pragma_…, json_each…) are not allowed: query the company's tables" };
  }
  const rows = [];
  let characters = 2;
  try {
    for (const row of statement.iterate()) {
      if (rows.length === limits.maxRows) {
        return { kind: "refused", message: `it returns more than ${limits.maxRows} rows; add a WHERE filter, aggregate, or LIMIT` };
      }
      characters += JSON.stringify(row).length + 1;
      if (characters > limits.maxCharacters) {
        return { kind: "refused", message: `its result is over ${limits.maxCharacters} characters; select fewer columns or rows` };
      }
      rows.push(row);
    }
  } catch (error) {
    return sqlFailure(error);
  }
  return { kind: "rows", rows };
}

/**
 * Whether the compiled program opens a virtual table. The company tables are ordinary tables; the pragma_… functions
 * are eponymous virtual tables, reachable under any quoting (`[pragma_database_list]`, `'pragma_…'`), so they are
 * refused by what SQLite compiled, not by the query's text. better-sqlite3 has no authorizer; EXPLAIN lists the
 * program's opcodes, and VOpen is the one that opens a virtual table.
 */
function readsVirtualTable(database, sql) {
  return database.prepare(`EXPLAIN ${sql}`).all().some((operation) => operation.opcode === "VOpen");
}

function sqlFailure(error) {
  if (error.code === "SQLITE_NOMEM") return { kind: "refused", message: "it needs more memory than a query may use; build smaller values" };
  return { kind: "sql-error", message: error.message };
}

process.on("message", (message) => {
  if (message.type === "open") return open(message.databaseId, message.bytes);
  if (message.type === "close") {
    databases.get(message.databaseId)?.close();
    databases.delete(message.databaseId);
    return;
  }
  const database = databases.get(message.databaseId);
  const outcome = database
    ? runQuery(database, message.sql, message.limits)
    : { kind: "crashed", message: `database ${message.databaseId} is not open in the query process` };
  process.send({ type: "result", requestId: message.requestId, outcome });
});
// The parent is gone (or closed the pool): nothing is left to answer.
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready" });
