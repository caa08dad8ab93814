/** Per-test and per-program verdicts of the code verifier. */
import { z } from "zod";

/**
 * not_run: skipped after an earlier failure (first-failure stop); unsupported: the test cannot run as written, which no
 * program can cause (an assert test that does not compile, or one passing a value of its own the trusted checker's
 * call channel cannot carry).
 */
export const TestVerdictKindSchema = z.enum(["accepted", "wrong_answer", "time_limit", "memory_limit", "runtime_error", "unsupported", "not_run"]);
export type TestVerdictKind = z.infer<typeof TestVerdictKindSchema>;

export const TestResultSchema = z.object({
  index: z.number().int().nonnegative(),
  verdict: TestVerdictKindSchema,
  detail: z.string().optional(),
  wallMs: z.number().optional(),
});
export type TestResult = z.infer<typeof TestResultSchema>;

export const ProgramVerdictSchema = z.object({
  /** True only when there was at least one test and every test was accepted. */
  passed: z.boolean(),
  /**
   * The first test the program failed; else "unsupported" when a test could not run as written; else "not_run" or
   * "accepted" ("infra_error" when grading itself failed).
   */
  verdict: z.union([TestVerdictKindSchema, z.literal("infra_error")]),
  passedTests: z.number().int().nonnegative(),
  totalTests: z.number().int().nonnegative(),
  tests: z.array(TestResultSchema),
  detail: z.string().optional(),
});
export type ProgramVerdict = z.infer<typeof ProgramVerdictSchema>;

/**
 * The program verdict summarising `tests`. A failure the program could have caused comes before an unsupported test
 * wherever it stands, so that a broken test never hides a real failure.
 */
export function summarizeTests(tests: TestResult[]): ProgramVerdict {
  const failure =
    tests.find((test) => test.verdict !== "accepted" && test.verdict !== "unsupported" && test.verdict !== "not_run") ??
    tests.find((test) => test.verdict === "unsupported") ??
    tests.find((test) => test.verdict === "not_run");
  const passedTests = tests.filter((test) => test.verdict === "accepted").length;
  return {
    passed: tests.length > 0 && failure === undefined,
    verdict: failure?.verdict ?? "accepted",
    passedTests,
    totalTests: tests.length,
    tests,
    detail: failure ? `test ${failure.index + 1}: ${failure.verdict}${failure.detail ? ` (${failure.detail})` : ""}` : undefined,
  };
}

/** The verdict of a program that could not be graded (no tests, bad payload, sandbox failure): never a pass. */
export function infraVerdict(detail: string, totalTests = 0): ProgramVerdict {
  return { passed: false, verdict: "infra_error", passedTests: 0, totalTests, tests: [], detail };
}
