/**
 * The four FinQA tools offered with OpenAI function calling (rLLM's names and arguments), their zod
 * argument schemas, and the dispatcher that runs a tool call. Every failure comes back as text for the model.
 */
import { z } from "zod";
import type { ToolCall, ToolDefinition } from "rllm-ts/core";
import { QueryRefusedError, type CompanyTables, type StoredTable, type TableSource, type TableStore } from "rllm-ts/benchmarks/finqa";
import { calculate } from "./calculator.js";
import { capToolOutput } from "./cap-tool-output.js";

const CompanyArgumentsSchema = z.object({
  company_name: z.string().min(1).describe("Company name or ticker, as given in the question"),
});
const TableArgumentsSchema = CompanyArgumentsSchema.extend({
  table_name: z.string().min(1).describe("A table name returned by get_table_names"),
});
const QueryArgumentsSchema = TableArgumentsSchema.extend({
  query: z
    .string()
    .min(1)
    .describe("One SQLite SELECT naming its columns, with a WHERE filter, GROUP BY, ORDER BY/LIMIT or an aggregate"),
});
const CalculatorArgumentsSchema = z.object({
  expression: z.string().min(1).describe("Arithmetic such as (5829 - 5735) / 5735 * 100; %, $ and 1,234 are understood"),
});

// The issue text writes the arguments as `company`, `table`: accept those spellings too.
const aliases: Record<string, string> = { company: "company_name", table: "table_name", sql: "query" };
function withAliases(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const object: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (object[canonical] === undefined && object[alias] !== undefined) object[canonical] = object[alias];
  }
  return object;
}

const tools = {
  get_table_names: {
    description: "List the tables available for a company.",
    schema: CompanyArgumentsSchema,
  },
  get_table_info: {
    description:
      "Describe one table: column names and types, row labels, and the distinct values of text columns. Call it before querying.",
    schema: TableArgumentsSchema,
  },
  sql_query: {
    description:
      "Run one read-only SQLite SELECT on a table. Name the columns (no SELECT *) and filter (WHERE ...) or aggregate. " +
      'Double-quote column names that are not plain words, e.g. "2015". Returns JSON records.',
    schema: QueryArgumentsSchema,
  },
  calculator: {
    description: "Evaluate an arithmetic expression and return the number.",
    schema: CalculatorArgumentsSchema,
  },
} as const;

type FinqaToolName = keyof typeof tools;
/** A tool name with the arguments its schema accepted, so that narrowing on the name types the arguments. */
type ParsedToolCall = { [Name in FinqaToolName]: { name: Name; args: z.infer<(typeof tools)[Name]["schema"]> } }[FinqaToolName];

/** The tool list sent with every chat request. */
export const finqaToolDefinitions: ToolDefinition[] = Object.entries(tools).map(([name, tool]) => ({
  type: "function",
  function: { name, description: tool.description, parameters: jsonSchemaOf(tool.schema) },
}));

/** The JSON schema of a tool's arguments, without the `$schema` dialect line some servers reject. */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>;
  return parameters;
}

/** The outcome of one tool call: the text returned to the model, and the table it read (for table-access scoring). */
export interface ToolResult {
  content: string;
  isError: boolean;
  accessedTable?: string;
}

/**
 * Runs one tool call against `source`'s tables among the run's `tables`. Bad JSON, bad arguments, unknown tools,
 * refused queries, SQL errors and queries stopped at their time limit come back as text for the model; only an abort
 * of `signal` (the episode's) rejects, with the signal's reason.
 */
export async function runFinqaTool(call: ToolCall, tables: CompanyTables, source: TableSource, signal?: AbortSignal): Promise<ToolResult> {
  const name = call.function.name;
  if (!Object.hasOwn(tools, name)) {
    return failure(`unknown tool "${name}"; available tools: ${Object.keys(tools).join(", ")}`);
  }
  let raw: unknown;
  try {
    raw = call.function.arguments.trim() === "" ? {} : JSON.parse(call.function.arguments);
  } catch (error) {
    return failure(`the arguments of ${name} are not valid JSON (${(error as Error).message})`);
  }
  const parsed = tools[name as FinqaToolName].schema.safeParse(withAliases(raw));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `"${issue.path.join(".") || "(arguments)"}": ${issue.message}`).join("; ");
    return failure(`bad arguments for ${name}: ${problems}`);
  }
  try {
    return await dispatch({ name, args: parsed.data } as ParsedToolCall, tables, source, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // Unknown companies and unreadable table files are data problems the model can route around.
    return failure((error as Error).message);
  }
}

async function dispatch(call: ParsedToolCall, tables: CompanyTables, source: TableSource, signal?: AbortSignal): Promise<ToolResult> {
  if (call.name === "calculator") {
    const value = calculate(call.args.expression);
    return value instanceof Error ? failure(value.message) : { content: String(value), isError: false };
  }
  const store = tables.open(source, call.args.company_name);
  if (call.name === "get_table_names") return { content: JSON.stringify(store.tableNames()), isError: false };
  const table = store.findTable(call.args.table_name);
  if (!table) return failure(`no table "${call.args.table_name}" for ${store.company}; tables: ${store.tableNames().join(", ")}`);
  if (call.name === "get_table_info") return { content: capToolOutput(describeTable(store, table)), isError: false, accessedTable: table.name };
  try {
    // The store refuses results over maxResultCharacters (8,000, the tool output cap), so nothing is clipped here.
    return { content: JSON.stringify(await store.query(table, call.args.query, signal)), isError: false, accessedTable: table.name };
  } catch (error) {
    if (!(error instanceof QueryRefusedError)) throw error;
    return { ...failure(error.message), accessedTable: table.name };
  }
}

function failure(message: string): ToolResult {
  return { content: `Error: ${message}`, isError: true };
}

/** rLLM's get_table_info record (same keys), plus the original headers where cleaning changed them. */
function describeTable(store: TableStore, table: StoredTable): string {
  const [first] = table.columns;
  const textColumns = table.columns.filter((column) => column.distinctValues !== undefined);
  const renamed = table.columns.filter((column) => column.header.trim().toLowerCase() !== column.name);
  return JSON.stringify({
    company: store.company,
    table_name: table.name,
    row_count: table.rowCount,
    column_names: table.columns.map((column) => column.name),
    // A list aligned with column_names: an object would move year-named columns ("2015") to the front.
    column_dtypes: table.columns.map((column) => column.type),
    ...(first?.distinctValues ? { index: { name: first.name, values: first.distinctValues } } : {}),
    unique_vals_per_col: Object.fromEntries(
      textColumns.filter((column) => column !== first).map((column) => [column.name, column.distinctValues]),
    ),
    ...(renamed.length > 0 ? { column_headers: Object.fromEntries(renamed.map((column) => [column.name, column.header])) } : {}),
    ...table.metadata,
  });
}
