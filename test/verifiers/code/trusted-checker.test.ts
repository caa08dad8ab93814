// Hostile programs against the trusted checker and the seccomp filter (hostile-programs.jsonl): each must fail with a
// reason that names the policy that stopped it, and the legitimate uses next to them (threads, typed results,
// expected exceptions) must still pass.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { normalizeTests } from "../../../verifiers/code/normalize-tests.js";

const CaseSchema = z.object({
  name: z.string(),
  /** The policy that stops the program (or that the legitimate program must get through). */
  policy: z.enum(["trusted-checker", "plain-data", "seccomp", "deny-subprocess"]),
  program: z.string(),
  tests: z.unknown(),
  fn_name: z.string().optional(),
  expect: z.enum(["accepted", "wrong_answer", "runtime_error", "unsupported"]),
  /** A substring of the verdict's detail. */
  reason: z.string(),
});
const cases = readFileSync(new URL("./hostile-programs.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line, index) => {
    const parsed = CaseSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`hostile-programs.jsonl:${index + 1}: ${parsed.error.message}`);
    return parsed.data;
  });
let grader: CodeGrader;

beforeAll(async () => {
  grader = await CodeGrader.create({ timeoutSeconds: 3, concurrency: 2 });
});
afterAll(() => grader.close());

describe("hostile programs", () => {
  it.each(cases)("$name → $expect ($policy)", async (testCase) => {
    const { tests, fnName } = normalizeTests(testCase.tests, testCase.fn_name);
    const verdict = await grader.grade({ program: testCase.program, tests, fnName });
    expect(verdict.verdict, verdict.detail).toBe(testCase.expect);
    expect(verdict.passed).toBe(testCase.expect === "accepted");
    if (testCase.expect !== "accepted") expect(verdict.detail).toContain(testCase.reason);
  });
});
