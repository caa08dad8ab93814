/**
 * The SQL guard of the sql_query tool: only a single SELECT that names its columns and filters or
 * aggregates (rLLM's rules), with table names rewritten to their SQL names. Pure text checks; the
 * store adds a read-only connection underneath, so a query that slipped past could still not write,
 * and runs it in a process with a time limit and a memory cap, so one that slipped past cannot run away.
 */
import { findSelfReferencingCte } from "./find-self-referencing-cte.js";

export type QueryCheck = { isAllowed: true; sql: string } | { isAllowed: false; message: string };

// Words that start or smuggle in anything but a read. RECURSIVE: a recursive CTE can run forever;
// zeroblob/randomblob: they build values of up to a gigabyte.
const forbiddenWords = [
  "insert", "update", "delete", "drop", "create", "alter", "attach", "detach", "vacuum",
  "reindex", "analyze", "begin", "commit", "rollback", "savepoint", "release", "recursive", "load_extension",
  "zeroblob", "randomblob",
];
const forbiddenPattern = new RegExp(`\\b(${forbiddenWords.join("|")})\\b`, "i");
// PRAGMA statements and the pragma_… table-valued functions (pragma_table_info, pragma_compile_options).
const pragmaPattern = /\b(pragma(?:_\w+)?)\b/i;
// A pragma function's name quoted as an identifier (`[pragma_database_list]`, "pragma_…", `pragma_…`), or as a string,
// which SQLite also reads as a name where one is expected (FROM 'pragma_database_list'). The query process refuses every
// virtual table as well, whatever the text (sql-query-process.mjs).
const quotedPragmaPattern = /(?:\[|"|`|')\s*(pragma(?:_\w+)?)\s*(?:\]|"|`|')/i;
// A column wildcard: `*` after SELECT, DISTINCT, ALL, a comma or `table.`; `count(*)` and `a * b` are not.
const wildcardPattern = /(?:\bselect|\bdistinct|\ball|,|\.)\s*\*/i;
// printf/format with a width or precision from an argument (`%.*c`) or of four digits or more builds huge values.
const printfPattern = /\b(printf|format)\s*\(\s*('(?:[^']|'')*'|)/gi;
const hugeWidthPattern = /%[-+ 0#,!]*(\*|\d{4,})|%[-+ 0#,!]*\d*\.(\*|\d{4,})/;

// Longest query accepted, in characters: a focused query is a few hundred.
const maxQueryCharacters = 4000;
// Most UNION / INTERSECT / EXCEPT operators in one query.
const maxCompoundOperators = 10;
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
  if (sql.length > maxQueryCharacters) return refuse(`the query is ${sql.length} characters long; the limit is ${maxQueryCharacters}`);
  const forbidden = forbiddenPattern.exec(masked);
  if (forbidden) return refuse(`${forbidden[1]!.toUpperCase()} is not allowed: the tables are read-only and only SELECT queries run`);
  const pragma = pragmaPattern.exec(masked) ?? quotedPragmaPattern.exec(sql);
  if (pragma) return refuse(`${pragma[1]} is not allowed: PRAGMA statements and pragma functions are refused (get_table_info describes a table)`);
  if (wildcardPattern.test(masked)) {
    return refuse("SELECT * is not allowed (nor table.* or a bare * among the columns): name the columns you need (get_table_info lists them)");
  }
  const selfReferencing = findSelfReferencingCte(sql, masked);
  if (selfReferencing !== undefined) {
    return refuse(`the CTE "${selfReferencing}" reads from itself, which SQLite runs as a recursion that may never end; recursive queries are not allowed`);
  }
  const compounds = masked.match(/\b(union|intersect|except)\b/gi)?.length ?? 0;
  if (compounds > maxCompoundOperators) return refuse(`the query has ${compounds} UNION/INTERSECT/EXCEPT; the limit is ${maxCompoundOperators}`);
  const printfProblem = checkPrintf(sql, masked);
  if (printfProblem !== undefined) return refuse(printfProblem);
  if (!/\bfrom\b/i.test(masked)) return refuse("the query needs a FROM clause naming the table");
  if (!focusPattern.test(masked)) {
    return refuse("the query must be focused: add a WHERE filter (or GROUP BY, ORDER BY ... LIMIT, or an aggregate such as SUM())");
  }
  return { isAllowed: true, sql: rewriteTableReferences(sql, masked, resolveTable) };
}

/** printf()/format() must take a literal format without `*` widths or widths of 1000 and more. */
function checkPrintf(sql: string, masked: string): string | undefined {
  for (const match of masked.matchAll(printfPattern)) {
    // printfPattern's groups are not optional (group 2 may match the empty string), so every match has them.
    const formatStart = match.index + match[0].length - match[2]!.length;
    const format = sql.slice(formatStart, formatStart + match[2]!.length);
    if (format === "") return `the format of ${match[1]}() must be a string literal`;
    if (hugeWidthPattern.test(format)) return `${match[1]}() widths and precisions must be written as numbers under 1000`;
  }
  return undefined;
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
    // tableReferencePattern's three groups are not optional, so every match has them.
    const start = match.index + match[1]!.length + match[2]!.length;
    const written = sql.slice(start, start + match[3]!.length);
    const name = /^["`'[]/.test(written) ? written.slice(1, -1).replace(/""/g, '"').replace(/''/g, "'") : written;
    const sqlName = resolveTable(name);
    if (sqlName === undefined) continue;
    rewritten += sql.slice(last, start) + `"${sqlName}"`;
    last = start + written.length;
  }
  return rewritten + sql.slice(last);
}
