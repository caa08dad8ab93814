import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { summarize } from "../../src/cli/commands/grade.js";
import { parseSetFlags } from "../../src/core/parse-set-flags.js";
import { InputError } from "../../src/core/errors/input-error.js";
import { scored, unscored } from "../../src/core/score.js";
import { mathGradeVerifier } from "../../verifiers/math/index.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-grade-"));
const writeRows = (name: string, rows: unknown[]) => {
  const file = path.join(directory, name);
  writeFileSync(file, rows.map((row) => (typeof row === "string" ? row : JSON.stringify(row))).join("\n") + "\n");
  return file;
};
const factorials = Array.from({ length: 300 }, (_, index) => `${4800 + index}!`).join("+");

describe("rllm grade --verifier math", () => {
  it("writes each input row with its Score and prints accuracy and timeouts", async () => {
    const input = writeRows("rows.jsonl", [
      { id: "a", response: "So $x = \\boxed{\\frac{1}{2}}$.", ground_truth: "0.5" },
      { id: "b", response: "\\boxed{3}", ground_truth: "4" },
      { id: "c", response: "The answer is \\boxed{B}", ground_truth: "13", choices: ["12", "13", "14", "15"] },
      { id: "d", response: `\\boxed{\\frac{\\sqrt{2}}{${factorials}}}`, ground_truth: "\\frac{\\sqrt{3}}{4900!}" },
    ]);
    const output = path.join(directory, "verdicts.jsonl");
    // Row d takes about 1.5 s of exact arithmetic here; rows a–c take a few ms of CPU, but on a loaded machine a row's
    // first grading (lazy loads, cold code) took over 100 ms of wall time and timed out too. A 400 ms limit times out d
    // and only d with a margin both ways (forty factorials and a 500 ms limit once timed out only on a loaded machine).
    const result = await runCli(["grade", "--verifier", "math", "--input", input, "--output", output, "--set", "timeoutMs=400", "--concurrency", "2"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("accuracy 50.0% (2/4 scored) | unscored 0 | timed out 1 | infra errors 0");
    expect(result.stderr).toMatch(/graded \d+\/4/);
    const verdicts = readFileSync(output, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(verdicts.map((row) => [row.id, row.isCorrect, row.value, row.status])).toEqual([
      ["a", true, 1, "scored"],
      ["b", false, 0, "scored"],
      ["c", true, 1, "scored"],
      ["d", false, 0, "scored"],
    ]);
    expect(verdicts[0]).toMatchObject({ ground_truth: "0.5", answer: "\\frac{1}{2}" });
    expect(verdicts[0].explanation).toEqual(expect.any(String));
    expect(verdicts[3]).toMatchObject({ signals: { timedOut: 1 } });
  });

  it("writes verdict rows to stdout and the summary to stderr without --output, honouring policy flags", async () => {
    const input = writeRows("ordered.jsonl", [{ response: "\\boxed{2, 1}", ground_truth: "1, 2" }]);
    const result = await runCli(["grade", "--verifier", "math", "--input", input, "--set", "unorderedLists=false"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ isCorrect: false });
    expect(result.stderr).toContain("accuracy 0.0% (0/1 scored)");
  });

  it("ends its progress at the row count when a row with an empty ground truth is skipped", async () => {
    const rows = [1, 2, 3, 4].map((value) => ({ response: `\\boxed{${value}}`, ground_truth: String(value) }));
    const input = writeRows("skipped.jsonl", [...rows, { response: "\\boxed{5}", ground_truth: "" }]);
    const result = await runCli(["grade", "--verifier", "math", "--input", input, "--output", path.join(directory, "skipped-out.jsonl")]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trim().split("\n").at(-1)).toBe("graded 5/5");
  });

  it("names the file, line and field of a bad row and exits 2", async () => {
    const input = writeRows("bad.jsonl", [{ response: "\\boxed{1}", ground_truth: "1" }, { response: 5, ground_truth: "1" }, "{not json"]);
    const result = await runCli(["grade", "--verifier", "math", "--input", input]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:2: field "response"`);
    expect(result.stderr).toContain(`${input}:3: not valid JSON`);
  });

  it("rejects an unknown verifier with exit 2, naming the ones available", async () => {
    const input = writeRows("one.jsonl", [{ response: "\\boxed{1}", ground_truth: "1" }]);
    const result = await runCli(["grade", "--verifier", "nope", "--input", input]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown verifier "nope"; available: math');
  });
});

describe("parseSetFlags and the math verifier's flags", () => {
  it("turns --set entries into typed flags and rejects malformed ones", () => {
    expect(parseSetFlags(["timeoutMs=500", "unorderedLists=false", "name=x"])).toEqual({ timeoutMs: 500, unorderedLists: false, name: "x" });
    expect(() => parseSetFlags(["oops"])).toThrow(InputError);
  });

  it("rejects an unknown --set key as a usage error naming it", async () => {
    const rows = [{ response: "\\boxed{1}", ground_truth: "1" }];
    await expect(mathGradeVerifier.gradeRows(rows, { flags: { unorderdLists: false } }, testRun.evaluatorContext())).rejects.toThrow(InputError);
    await expect(mathGradeVerifier.gradeRows(rows, { flags: { unorderdLists: false } }, testRun.evaluatorContext())).rejects.toThrow(/unorderdLists/);
  });

  it("summarises accuracy over scored rows, counting unscored rows and infra errors apart", () => {
    const scores = [
      scored(1, true),
      scored(0, false, { signals: { timedOut: 1 } }),
      unscored("sandbox crashed", { signals: { infraError: 1 } }),
      unscored("the gold answer is free text"),
    ];
    expect(summarize(scores)).toBe("accuracy 50.0% (1/2 scored) | unscored 1 | timed out 1 | infra errors 1 (25.0%)");
  });
});
