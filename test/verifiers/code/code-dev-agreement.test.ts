// Every case of code_dev.jsonl (377 real and mutated programs) through the real sandbox: the verdict must agree with
// expected_pass. Ambiguous cases (correct output, then a non-zero exit) fail under our rule: a run must exit 0.
import { readFileSync } from "node:fs";
import pLimit from "p-limit";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { normalizeTests } from "../../../verifiers/code/normalize-tests.js";
import type { ProgramVerdict } from "../../../verifiers/code/test-verdict.js";

const CaseSchema = z.object({
  id: z.string(),
  program: z.string(),
  tests: z.unknown(),
  fn_name: z.string().nullish(),
  expected_pass: z.boolean(),
  policy: z.string().nullish(),
  ambiguous: z.boolean().nullish(),
});
const cases = readFileSync(new URL("../../fixtures/code-dev.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => CaseSchema.parse(JSON.parse(line)));
const verdicts = new Map<string, ProgramVerdict>();

// What each sandbox policy turns the mutant into.
const policyVerdicts: Record<string, string> = {
  "memory-limit<=4GiB": "memory_limit",
  "deny-fs-read-outside-sandbox": "runtime_error",
  "deny-subprocess": "runtime_error",
};

beforeAll(async () => {
  // 3 s per test instead of 6: the correct programs need milliseconds (even on a loaded machine), and the 33 time-outs dominate the run time.
  const grader = await CodeGrader.create({ timeoutSeconds: 3, concurrency: 4 });
  const limit = pLimit(8);
  await Promise.all(
    cases.map((testCase) =>
      limit(async () => {
        const { tests, fnName } = normalizeTests(testCase.tests, testCase.fn_name);
        verdicts.set(testCase.id, await grader.grade({ program: testCase.program, tests, fnName }));
      }),
    ),
  );
}, 600_000);

describe("code_dev.jsonl agreement", () => {
  it("has all 377 cases", () => {
    expect(cases).toHaveLength(377);
  });

  it.each(cases)("$id", (testCase) => {
    const verdict = verdicts.get(testCase.id)!;
    expect(verdict.passed, `${verdict.verdict}: ${verdict.detail}`).toBe(testCase.expected_pass);
    expect(verdict.verdict).not.toBe("infra_error");
    if (testCase.policy) expect(verdict.verdict).toBe(policyVerdicts[testCase.policy]);
    if (testCase.policy === "deny-subprocess") expect(verdict.detail).toContain("denied by sandbox policy");
    if (testCase.ambiguous) expect(verdict.verdict).toBe("runtime_error");
  });
});
