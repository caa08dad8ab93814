// `rllm rerank --method majority` on candidates without an `answer` field: the math normaliser extracts their final
// answers (instead of a silent tie-break), code candidates are refused, and no judge is started (issue 35, item 5).
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-majority-"));

function input(name: string, rows: object[]): string {
  const file = path.join(directory, name);
  writeFileSync(file, rows.map((row) => JSON.stringify(row)).join("\n"));
  return file;
}

describe("rllm rerank --method majority", () => {
  it("votes on the final answers the math normaliser extracts, without starting the embedded judge", async () => {
    const file = input("math.jsonl", [
      { id: "p1", problem: "What is 1/2 + 0?", candidates: ["So it is \\boxed{0.5}", "The answer is 3.", "\\boxed{\\frac{1}{2}}", "I think \\boxed{7}"] },
    ]);
    const result = await runCli(["rerank", "--input", file, "--method", "majority", "--judge-kind", "math"]);
    expect(result.code, result.stderr).toBe(0);
    const pick = JSON.parse(result.stdout.trim());
    expect([0, 2]).toContain(pick.chosenIndex);
    expect(pick.scores).toEqual([0.5, 0.25, 0.5, 0.25]);
    expect(pick.judgeCalls).toBe(0);
    expect(result.stderr).not.toContain("embedded tiny model");
  });

  it("keeps a candidate's own answer field over the extracted one", async () => {
    const file = input("labelled.jsonl", [{ id: "p1", problem: "q", candidates: [{ text: "\\boxed{1}", answer: "2" }, "\\boxed{2}", "\\boxed{1}"] }]);
    const result = await runCli(["rerank", "--input", file, "--method", "majority"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim()).scores).toEqual([2 / 3, 2 / 3, 1 / 3]);
  });

  it("refuses code candidates without an answer field, naming the file, the row and the flag", async () => {
    const file = input("code.jsonl", [{ id: "c1", problem: "write f", candidates: ["def f(): pass", "def f(): return 1"] }]);
    const result = await runCli(["rerank", "--input", file, "--method", "majority", "--judge-kind", "code"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}: row "c1": candidate 0 has no "answer": --method majority with --judge-kind code needs one`);
  });

  it("refuses a file where no candidate has an answer to vote on", async () => {
    const file = input("none.jsonl", [{ id: "p1", problem: "q", candidates: ["", " "] }]);
    const result = await runCli(["rerank", "--input", file, "--method", "majority"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("every pick would be a tie-break");
  });
});
