// rLLM's FinQA grading cases (cookbooks/finqa/test.py and the judge prompt's examples) run against our grader.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { packagePath } from "../../../src/core/package-root.js";
import { extractFinalAnswer } from "../../../verifiers/finqa/extract-final-answer.js";
import { gradeFinqaAnswer } from "../../../verifiers/finqa/grade-finqa-answer.js";
import { tableAccess } from "../../../verifiers/finqa/table-access.js";

const SourceSchema = z.object({ repository: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), path: z.string(), test: z.string() }).strict();
const verdict = z.enum(["correct", "incorrect"]);
const RowSchema = z.discriminatedUnion("kind", [
  z
    .object({
      id: z.string(),
      kind: z.literal("grade"),
      question: z.string().optional(),
      gold: z.union([z.string(), z.number()]),
      prediction: z.string(),
      /** rLLM's verdict. */
      rllm: verdict,
      /** Ours: equal to rLLM's unless `policy` says why not. */
      expected: verdict,
      /** The answer text rLLM's test says is extracted. */
      extracted: z.string().optional(),
      policy: z.string().optional(),
      note: z.string().optional(),
      source: SourceSchema,
      licence: z.string(),
    })
    .strict(),
  z
    .object({
      id: z.string(),
      kind: z.literal("table-access"),
      expectedTables: z.array(z.string()),
      accessedTables: z.array(z.string()),
      rllm: z.number(),
      expected: z.number(),
      source: SourceSchema,
      licence: z.string(),
    })
    .strict(),
]);

const suiteFile = new URL("./rllm-suite.jsonl", import.meta.url);
const rows = readFileSync(suiteFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line, index) => {
    const parsed = RowSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`rllm-suite.jsonl:${index + 1}: ${parsed.error.message}`);
    return parsed.data;
  });
const gradeRows = rows.flatMap((row) => (row.kind === "grade" ? [row] : []));
const tableAccessRows = rows.flatMap((row) => (row.kind === "table-access" ? [row] : []));

describe("rLLM's FinQA suite against gradeFinqaAnswer", () => {
  it.each(gradeRows)("$id: $prediction against $gold → $expected", (row) => {
    expect(gradeFinqaAnswer(row.prediction, row.gold).verdict).toBe(row.expected);
    if (row.extracted !== undefined) expect(extractFinalAnswer(row.prediction).text).toBe(row.extracted);
  });

  it.each(tableAccessRows)("$id: table access $expected", (row) => {
    expect(tableAccess(row.expectedTables, row.accessedTables)).toBe(row.expected);
  });

  it("differs from rLLM only on rows that name their policy, and never by passing what rLLM fails", () => {
    for (const row of rows) {
      if (row.kind === "grade") {
        expect(row.rllm === "incorrect" && row.expected === "correct", `${row.id} would be a false positive`).toBe(false);
        expect(row.expected === row.rllm || row.policy !== undefined, `${row.id} differs without a policy`).toBe(true);
      } else {
        expect(row.expected, row.id).toBe(row.rllm);
      }
    }
  });

  it("lists every policy difference in docs/finqa.md", () => {
    const docs = readFileSync(packagePath("docs/finqa.md"), "utf8");
    for (const row of gradeRows.filter((graded) => graded.policy !== undefined)) expect(docs, row.id).toContain(row.id);
  });
});
