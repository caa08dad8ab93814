// The `finqa` GradeVerifier: row schema, β from --set, table-access bonus, and free-text gold left unscored; plus one real CLI run.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { finqaGradeVerifier, FinqaRowSchema } from "../../../verifiers/finqa/finqa-grade-verifier.js";
import { packagePath } from "../../../src/core/package-root.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const rows = [
  { id: "INTC/2015/page_41.pdf-4", response: "FINAL ANSWER: 14.46%", ground_truth: 0.14464, expected_tables: ["fy2015_page_41"], accessed_tables: ["FY2015_PAGE_41"] },
  { id: "ETR/2016/page_23.pdf-2", response: "FINAL ANSWER: $95 million", ground_truth: 94, expected_tables: ["fy2016_page_23"], accessed_tables: ["fy2016_page_23"] },
  { id: "MO/2016/page_19.pdf-1", response: "FINAL ANSWER: yes", ground_truth: "yes", expected_tables: ["a", "b"], accessed_tables: ["a"] },
  { id: "free", response: "FINAL ANSWER: 20%", ground_truth: "Revenue rose from $10 million to $12 million, up 20%." },
];

describe("finqa GradeVerifier", () => {
  it("adds β · table access to correctness, with β from --set", async () => {
    const verdicts = await finqaGradeVerifier.gradeRows(rows.map((row) => FinqaRowSchema.parse(row)), { flags: { beta: 0.5 } }, testRun.evaluatorContext());
    expect(verdicts.map((verdict) => [verdict.isCorrect, verdict.value])).toEqual([
      [true, 1.5],
      [false, 0.5],
      [true, 1.25],
      [false, 0],
    ]);
    expect(verdicts[3]).toMatchObject({ status: "unscored", signals: { tableAccess: 0 } });
    expect(verdicts[3]!.signals.infraError).toBeUndefined();
  });

  it("uses β = 0.1 by default and rejects unknown flags", async () => {
    const [verdict] = await finqaGradeVerifier.gradeRows([FinqaRowSchema.parse(rows[0])], { flags: {} }, testRun.evaluatorContext());
    expect(verdict!.value).toBeCloseTo(1.1, 12);
    await expect(finqaGradeVerifier.gradeRows([], { flags: { betta: 1 } }, testRun.evaluatorContext())).rejects.toThrow(/--set .*betta/);
  });

  it("runs as `rllm grade --verifier finqa` and leaves unscored rows out of the accuracy", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "finqa-grade-"));
    const input = path.join(folder, "rows.jsonl");
    const output = path.join(folder, "verdicts.jsonl");
    writeFileSync(input, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [packagePath("bin/rllm.js"), "grade", "--verifier", "finqa", "--input", input, "--output", output, "--set", "beta=0"],
      { cwd: packagePath() },
    );
    expect(stdout).toContain("accuracy 66.7% (2/3 scored) | unscored 1 | timed out 0 | infra errors 0");
    const verdicts = readFileSync(output, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(verdicts.map((verdict) => [verdict.value, verdict.status])).toEqual([[1, "scored"], [0, "scored"], [1, "scored"], [0, "unscored"]]);
  }, 60_000);
});
