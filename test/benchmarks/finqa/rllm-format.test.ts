// rLLM/finqa: CSV questions plus company_tables JSON (pandas orients), loaded into tasks and queried through the tools.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadFinqaTasks } from "../../../benchmarks/finqa/finqa-benchmark.js";
import { CompanyTables } from "../../../benchmarks/finqa/company-tables.js";
import { readRllmFinqaRows } from "../../../benchmarks/finqa/rllm-format.js";
import { TableSourceSchema } from "../../../benchmarks/finqa/table-source.js";
import { runFinqaTool } from "../../../cookbooks/finqa/finqa-tools.js";

const tables = new CompanyTables();
afterAll(() => tables.close());

/** A dataset folder laid out like rLLM's data.tar.gz: `<split>_finqa.csv` and `company_tables/<company>/*.json`. */
function writeRllmFixture(folder: string): void {
  const csv = [
    "id,user_query,question,answer,company,question_type,table_name,columns_used_json,rows_used_json,explanation",
    'q1,"For Acme Corp, what was Cloud revenue in 2023?",Cloud revenue 2023?,"$1,200 million",Acme Corp,single_table,[\'revenue_by_segment\'],"[""2023""]","[""Cloud""]","Read the ""Cloud"" row,\nthen the 2023 column."',
    'q2,Acme Corp headcount growth from 2022 to 2023?,Headcount growth?,25%,Acme Corp,multi_table_compare,"[""headcount"", ""revenue_by_segment""]",[],[],',
  ].join("\n");
  writeFileSync(path.join(folder, "test_finqa.csv"), csv + "\n");
  const company = path.join(folder, "company_tables", "Acme Corp");
  mkdirSync(company, { recursive: true });
  // Written as text, as pandas' to_json writes it: JSON.stringify of an object would put "2023" first.
  const pandasColumns = '{"Segment":{"0":"Cloud","1":"Devices"},"2023":{"0":"$1,200","1":"800"},"2022":{"0":"1000","1":"900"}}';
  writeFileSync(
    path.join(company, "tables_cleaned_all_companies.json"),
    JSON.stringify({
      revenue_by_segment: { table: pandasColumns, description: "Revenue by segment, USD millions" },
      Headcount: { table: { columns: ["year", "employees"], index: [0, 1], data: [[2022, 400], [2023, 500]] }, description: "Employees at year end" },
    }),
  );
}

const call = (name: string, args: object) => ({ id: "1", type: "function" as const, function: { name, arguments: JSON.stringify(args) } });

describe("rLLM/finqa format", () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "finqa-rllm-"));
  writeRllmFixture(folder);

  it("reads quoted CSV fields (commas, doubled quotes, newlines) and both list spellings of table_name", () => {
    const rows = readRllmFinqaRows(path.join(folder, "test_finqa.csv"));
    expect(rows.map((row) => row.table_name)).toEqual([["revenue_by_segment"], ["headcount", "revenue_by_segment"]]);
    expect(rows[0]?.explanation).toBe('Read the "Cloud" row,\nthen the 2023 column.');
  });

  it("loads tasks from the data folder with the gold answer and expected tables", async () => {
    const tasks = await loadFinqaTasks({ home: "/nonexistent", dataFile: folder });
    expect(tasks.map((task) => task.id)).toEqual(["q1", "q2"]);
    expect(tasks[0]?.instruction).toBe("For Acme Corp, what was Cloud revenue in 2023?");
    expect(tasks[0]?.metadata).toMatchObject({ ground_truth: "$1,200 million", expected_tables: ["revenue_by_segment"], question_type: "single_table" });
  });

  it("serves the company's tables to the tools, case-insensitively", async () => {
    const task = (await loadFinqaTasks({ home: "/nonexistent", dataFile: folder }))[0]!;
    const source = TableSourceSchema.parse(task.metadata.table_source);
    expect((await runFinqaTool(call("get_table_names", { company_name: "acme corp" }), tables, source)).content).toBe('["revenue_by_segment","Headcount"]');
    const info = JSON.parse((await runFinqaTool(call("get_table_info", { company_name: "Acme Corp", table_name: "revenue_by_segment" }), tables, source)).content);
    expect(info).toMatchObject({ column_names: ["segment", "2023", "2022"], index: { name: "segment", values: ["Cloud", "Devices"] } });
    expect(info.description).toBe("Revenue by segment, USD millions");
    const query = `SELECT "2023" FROM revenue_by_segment WHERE segment = 'Cloud'`;
    expect(await runFinqaTool(call("sql_query", { company_name: "Acme Corp", table_name: "revenue_by_segment", query }), tables, source)).toEqual({
      content: '[{"2023":1200}]',
      isError: false,
      accessedTable: "revenue_by_segment",
    });
    const split = await runFinqaTool(call("sql_query", { company: "Acme Corp", table: "headcount", query: "SELECT employees FROM headcount WHERE year = 2023" }), tables, source);
    expect(split.content).toBe('[{"employees":500}]');
    expect((await runFinqaTool(call("get_table_names", { company_name: "Globex" }), tables, source)).content).toMatch(/^Error: unknown company "Globex" .*known: Acme Corp/);
  });
});
