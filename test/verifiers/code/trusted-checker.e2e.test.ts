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
  policy: z.enum(["trusted-checker", "plain-data", "call-channel", "seccomp", "deny-subprocess"]),
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

// The checker compiles a job's assert tests before the program's names arrive (checker.py, _compile_test). A test that
// does not compile is the test's fault, never the program's: unsupported at its own turn, after the tests before it
// have run and been reported, and the tests after it still run, so a failure there still scores the program.
describe("assert tests that do not compile", () => {
  const program = "def f(x):\n    return x\n";
  const grade = (codes: string[]) => {
    const { tests, fnName } = normalizeTests(
      codes.map((code) => ({ testtype: "assert", code })),
      "f",
    );
    return grader.grade({ program, tests, fnName });
  };

  it("are unsupported at their own turn, and the tests after them still run", async () => {
    const verdict = await grade(["assert f(1) == 1", "assert f((", "assert f(2) == 2"]);
    expect(verdict.verdict).toBe("unsupported");
    expect(verdict.passed).toBe(false);
    expect(verdict.passedTests).toBe(2);
    expect(verdict.tests?.[1]?.verdict).toBe("unsupported");
    expect(verdict.tests?.[1]?.detail).toMatch(/^the test does not compile: SyntaxError: .*<test 1>/);
    expect(verdict.tests?.[2]?.verdict).toBe("accepted");
  });

  it("do not hide a later test's failure", async () => {
    const verdict = await grade(["assert f((", "assert f(2) == 3", "assert f(3) == 3"]);
    expect(verdict.verdict).toBe("wrong_answer");
    expect(verdict.tests?.map((test) => test.verdict)).toEqual(["unsupported", "wrong_answer", "not_run"]);
  });

  it("do not hide an earlier test's failure", async () => {
    const verdict = await grade(["assert f(1) == 2", "assert f(2) == 2\0"]);
    expect(verdict.verdict).toBe("wrong_answer");
    expect(verdict.tests?.[0]?.detail).toContain("AssertionError");
    expect(verdict.tests?.[1]?.verdict).toBe("not_run");
  });
});
