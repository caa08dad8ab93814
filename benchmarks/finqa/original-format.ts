/**
 * The original FinQA format (czyssrs/FinQA; also its flattened copies such as the bundled sample):
 * each record's table is one page of a company's annual report; a company's tables are all its pages in the file.
 */
import { existsSync } from "node:fs";
import { z } from "zod";
import { assertUniqueIds, describeIssues, InputError, parseJsonFile, readJsonlRows, type Task } from "rllm-ts/core";
import type { SourceTable } from "./source-table.js";
import { sqlIdentifier } from "./sql-identifier.js";
import type { TableSource } from "./table-source.js";

const GoldAnswerSchema = z.union([z.number(), z.string().min(1)]);
const CellSchema = z.union([z.string(), z.number()]).transform(String);

/** One record: `qa.question`/`qa.exe_ans` (original) or top-level `question`/`exe_ans` (flattened copies). */
export const OriginalFinqaRowSchema = z
  .object({
    id: z.string().regex(/^[^/:]+\/.+$/, 'expected "<TICKER>/<year>/page_<n>.pdf-<k>" (no ":")'),
    pre_text: z.array(z.string()).default([]),
    post_text: z.array(z.string()).default([]),
    table: z.array(z.array(CellSchema)).min(1, "a table needs at least a header row"),
    question: z.string().min(1).optional(),
    exe_ans: GoldAnswerSchema.optional(),
    program: z.string().optional(),
    qa: z
      .object({ question: z.string().min(1), exe_ans: GoldAnswerSchema, program: z.string().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough()
  .refine((row) => row.qa !== undefined || (row.question !== undefined && row.exe_ans !== undefined), {
    message: 'needs "qa.question" and "qa.exe_ans" (or top-level "question" and "exe_ans")',
  });
export type OriginalFinqaRow = z.infer<typeof OriginalFinqaRowSchema>;

// Long report text is clipped so get_table_info stays within the tool output cap.
const maxContextCharacters = 2000;

/** Reads a `.jsonl` file or a `.json` array (the original dataset files) of FinQA records. */
export function readOriginalFinqaRows(file: string): OriginalFinqaRow[] {
  if (!file.endsWith(".json")) return readJsonlRows(file, OriginalFinqaRowSchema);
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  const records = parseJsonFile(file);
  if (!Array.isArray(records)) throw new InputError(`${file}: expected a JSON array of FinQA records`);
  const problems: string[] = [];
  const rows: OriginalFinqaRow[] = [];
  records.forEach((record, index) => {
    const parsed = OriginalFinqaRowSchema.safeParse(record);
    if (parsed.success) rows.push(parsed.data);
    else problems.push(describeIssues(`${file} record`, index + 1, parsed.error));
  });
  if (problems.length > 0) throw new InputError(`${problems.length} bad record(s) in ${file}:\n${problems.slice(0, 10).join("\n")}`);
  if (rows.length === 0) throw new InputError(`${file}: no records`);
  return rows;
}

/** The ticker (company) and the page's table name of a record id: `ETR/2016/page_23.pdf-2` → `ETR`, `fy2016_page_23`. */
export function parseOriginalId(id: string): { company: string; tableName: string } {
  // split always returns at least one piece.
  const [company, ...rest] = id.split("/") as [string, ...string[]];
  const page = rest.join("/").replace(/-\d+$/, "").replace(/\.pdf$/i, "").replace(/^(\d{4})\//, "fy$1_");
  return { company, tableName: sqlIdentifier(page, "table") };
}

/** Tasks from records; the gold answer is `exe_ans` and the expected table is the record's own page. */
export function originalRowsToTasks(rows: readonly OriginalFinqaRow[], file: string): Task[] {
  assertUniqueIds(file, rows);
  const source: TableSource = { format: "finqa-original", file };
  return rows.map((row) => {
    const { company, tableName } = parseOriginalId(row.id);
    const question = row.qa?.question ?? row.question!;
    return {
      id: row.id,
      instruction: `Company: ${company}\nQuestion: ${question}`,
      metadata: {
        ...row,
        question,
        company,
        ground_truth: row.qa?.exe_ans ?? row.exe_ans!,
        expected_tables: [tableName],
        question_type: "single_table",
        table_source: source,
      },
    };
  });
}

/** Every company's tables: one per distinct report page (records of the same page share its table). */
export function originalCompanyTables(rows: readonly OriginalFinqaRow[]): Map<string, SourceTable[]> {
  const companies = new Map<string, Map<string, SourceTable>>();
  for (const row of rows) {
    const { company, tableName } = parseOriginalId(row.id);
    const key = company.toLowerCase();
    const tables = companies.get(key) ?? new Map<string, SourceTable>();
    companies.set(key, tables);
    if (tables.has(tableName)) continue;
    // The schema requires a header row, so the table has a first row.
    const [header, ...body] = row.table as [string[], ...string[][]];
    const [, year, page] = /^[^/]+\/(\d{4})\/page_(\d+)/.exec(row.id) ?? [];
    tables.set(tableName, {
      name: tableName,
      header,
      rows: body,
      metadata: {
        source: year ? `${company} annual report ${year}, page ${page}` : row.id,
        text_before_table: clip(row.pre_text.join(" ")),
        text_after_table: clip(row.post_text.join(" ")),
      },
    });
  }
  return new Map([...companies].map(([company, tables]) => [company, [...tables.values()]]));
}

function clip(text: string): string {
  return text.length <= maxContextCharacters ? text : `${text.slice(0, maxContextCharacters)} …(clipped)`;
}
