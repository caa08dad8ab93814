// Loading the original FinQA format: the bundled sample, the nested `qa` records of the dataset files, and errors that name the row.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadFinqaTasks } from "../../../benchmarks/finqa/finqa-benchmark.js";
import { originalCompanyTables, parseOriginalId, readOriginalFinqaRows } from "../../../benchmarks/finqa/original-format.js";
import { packagePath } from "../../../src/core/package-root.js";

const home = "/nonexistent-rllm-home";

describe("original FinQA format", () => {
  it("loads the 50 bundled test records with their gold answers and expected page tables", async () => {
    const tasks = await loadFinqaTasks({ home });
    expect(tasks).toHaveLength(50);
    const intel = tasks.find((task) => task.id === "INTC/2015/page_41.pdf-4")!;
    expect(intel.instruction).toMatch(/^Company: INTC\nQuestion: /);
    expect(intel.metadata).toMatchObject({ company: "INTC", ground_truth: 0.14464, expected_tables: ["fy2015_page_41"] });
    expect(tasks.filter((task) => task.metadata.ground_truth === "yes" || task.metadata.ground_truth === "no")).toHaveLength(7);
  });

  it("makes each company's distinct report pages its tables (shared pages once)", () => {
    const companies = originalCompanyTables(readOriginalFinqaRows(packagePath("benchmarks/finqa/data/finqa_sample.jsonl")));
    expect(companies.get("adbe")!.map((table) => table.name)).toEqual(["fy2008_page_89"]);
    expect(companies.get("etr")!.map((table) => table.name)).toEqual(["fy2016_page_23", "fy2017_page_372"]);
    expect(companies.get("etr")?.[0]?.metadata.source).toBe("ETR annual report 2016, page 23");
  });

  it("parses ids into the ticker and a page table name", () => {
    expect(parseOriginalId("ETR/2016/page_23.pdf-2")).toEqual({ company: "ETR", tableName: "fy2016_page_23" });
  });

  it("reads the original dataset's JSON array with nested qa fields", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "finqa-original-"));
    const file = path.join(folder, "test.json");
    const record = {
      id: "ABC/2019/page_7.pdf-1",
      pre_text: ["revenue grew ."],
      post_text: [],
      table: [["", "2019", "2018"], ["revenue", "$ 120", "$ 100"]],
      qa: { question: "what was the growth in revenue?", program: "subtract(120, 100), divide(#0, 100)", exe_ans: 0.2 },
    };
    writeFileSync(file, JSON.stringify([record]));
    const task = (await loadFinqaTasks({ home, dataFile: file }))[0]!;
    expect(task.metadata).toMatchObject({ question: "what was the growth in revenue?", ground_truth: 0.2, company: "ABC" });
  });

  it("names the file, row and field of a bad record", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "finqa-original-"));
    const file = path.join(folder, "bad.jsonl");
    writeFileSync(file, `${JSON.stringify({ id: "ABC/2019/page_7.pdf-1", table: [["a"]], question: "q", exe_ans: 1 })}\n{"id": "ABC/2019/page_8.pdf-1", "table": "oops", "question": "q", "exe_ans": 1}\n`);
    expect(() => readOriginalFinqaRows(file)).toThrow(new RegExp(`${file}:2: field "table"`));
  });

  it("refuses a train split when only the bundled test sample is available", async () => {
    await expect(loadFinqaTasks({ home, split: "train" })).rejects.toThrow(/rllm dataset pull finqa/);
  });
});
