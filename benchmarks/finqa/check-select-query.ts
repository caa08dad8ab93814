/**
 * The SQL guard of the sql_query tool: only a single SELECT that names its columns and filters or
 * aggregates (rLLM's rules), with table names rewritten to their SQL names. Pure text checks; the
 * store adds a read-only connection underneath, so a query that slipped past could still not write.
 */

export type QueryCheck = { isAllowed: true; sql: string } | { isAllowed: false; message: string };

// Words that start or smuggle in anything but a read. RECURSIVE: a recursive CTE can run forever;
// zeroblob/randomblob: they build values of up to a gigabyte.
const forbiddenWords = [
  "insert", "update", "delete", "drop", "create", "alter", "attach", "detach", "pragma", "vacuum",
  "reindex", "analyze", "begin", "commit", "rollback", "savepoint", "release", "recursive", "load_extension",
  "zeroblob", "randomblob",
];
const forbiddenPattern = new RegExp(`\\b(${forbiddenWords.join("|")})\\b`, "i");
// rLLM's list of tokens that show a query is focused: a filter, a grouping, a limit or an aggregate.
const focusPattern =
  /\b(where|having|group\s+by|order\s+by|limit|offset|in|exists|like|between|filter)\b|\b(count|max|min|sum|avg|total)\s*\(/i;

/** Checks `query` and rewrites `FROM/JOIN <name>` through `resolveTable` (unknown names are left for SQLite to report). */
export function checkSelectQuery(query: string, resolveTable: (name: string) => string | undefined): QueryCheck {
  const sql = query.trim().replace(/[;\s]+$/, "");
  if (sql === "") return refuse("the query is empty");
  const masked = maskQuoted(sql);
  if (masked === undefined) return refuse("the query has an unterminated quote");
  if (/--|\/\*/.test(masked)) return refuse("comments are not allowed in queries");
  if (masked.includes(";")) return refuse("only one statement is allowed: remove the ';' and run queries one at a time");
  if (!/^\s*(select|with)\b/i.test(masked)) return refuse("only SELECT queries are allowed");
  const forbidden = forbiddenPattern.exec(masked);
  if (forbidden) return refuse(`${forbidden[1].toUpperCase()} is not allowed: the tables are read-only and only SELECT queries run`);
  if (/\bselect\s+(distinct\s+|all\s+)?\*/i.test(masked)) {
    return refuse("SELECT * is not allowed: name the columns you need (get_table_info lists them)");
  }
  if (!/\bfrom\b/i.test(masked)) return refuse("the query needs a FROM clause naming the table");
  if (!focusPattern.test(masked)) {
    return refuse("the query must be focused: add a WHERE filter (or GROUP BY, ORDER BY ... LIMIT, or an aggregate such as SUM())");
  }
  return { isAllowed: true, sql: rewriteTableReferences(sql, masked, resolveTable) };
}

function refuse(message: string): QueryCheck {
  return { isAllowed: false, message: `query refused: ${message}` };
}

/** The query with every quoted string or identifier blanked to spaces (same length), or undefined if a quote is unclosed. */
export function maskQuoted(sql: string): string | undefined {
  let masked = "";
  let index = 0;
  while (index < sql.length) {
    const character = sql[index];
    const closing = character === "'" ? "'" : character === '"' ? '"' : character === "`" ? "`" : character === "[" ? "]" : undefined;
    if (closing === undefined) {
      masked += character;
      index++;
      continue;
    }
    let end = index + 1;
    for (;;) {
      end = sql.indexOf(closing, end);
      if (end === -1) return undefined;
      // A doubled quote inside a string or identifier is an escaped quote.
      if (closing !== "]" && sql[end + 1] === closing) {
        end += 2;
        continue;
      }
      break;
    }
    masked += character + " ".repeat(end - index - 1) + closing;
    index = end + 1;
  }
  return masked;
}

// FROM/JOIN followed by a quoted or bare table name (bare names may carry the `.json` suffix rLLM tolerates).
const tableReferencePattern = /\b(from|join)(\s+)("(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|'(?:[^']|'')+'|[\w.-]+)/gi;

function rewriteTableReferences(sql: string, masked: string, resolveTable: (name: string) => string | undefined): string {
  let rewritten = "";
  let last = 0;
  for (const match of masked.matchAll(tableReferencePattern)) {
    const start = match.index + match[1].length + match[2].length;
    const written = sql.slice(start, start + match[3].length);
    const name = /^["`'[]/.test(written) ? written.slice(1, -1).replace(/""/g, '"').replace(/''/g, "'") : written;
    const sqlName = resolveTable(name);
    if (sqlName === undefined) continue;
    rewritten += sql.slice(last, start) + `"${sqlName}"`;
    last = start + written.length;
  }
  return rewritten + sql.slice(last);
}
