// HumanEval's 164 canonical solutions through the real sandbox and the trusted checker: every one must pass. Many import
// math, hashlib or typing names that their tests use (`math.isclose`, `hashlib.md5`), so this guards the checker's
// binding of program modules to its own imports (issue #29: an `import math` must neither dodge a test nor fail one).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";

const problems = readFileSync(new URL("./human-eval-canonical.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { id: string; program: string; test: string });
let grader: CodeGrader;

beforeAll(async () => {
  grader = await CodeGrader.create({ concurrency: 2 });
});
afterAll(() => grader.close());

describe("HumanEval canonical solutions", () => {
  it("all 164 pass in trusted-checker mode", async () => {
    const verdicts = await Promise.all(problems.map((problem) => grader.grade({ program: problem.program, tests: [{ kind: "assert", code: problem.test }] })));
    const failures = verdicts.flatMap((verdict, index) => (verdict.passed ? [] : [`${problems[index]!.id}: ${verdict.verdict} ${verdict.detail ?? ""}`]));
    expect(problems).toHaveLength(164);
    expect(failures).toEqual([]);
  }, 300_000);
});
