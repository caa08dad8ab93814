/** Per-test and per-program verdicts of the code verifier. */
import { z } from "zod";

/** not_run: skipped after an earlier failure (first-failure stop); unsupported: the test passes a value of its own the trusted checker's call channel cannot carry (no program can cause it). */
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
  /** The first non-accepted test's verdict ("accepted" when all passed, "infra_error" when grading itself failed). */
  verdict: z.union([TestVerdictKindSchema, z.literal("infra_error")]),
  passedTests: z.number().int().nonnegative(),
  totalTests: z.number().int().nonnegative(),
  tests: z.array(TestResultSchema),
  detail: z.string().optional(),
});
export type ProgramVerdict = z.infer<typeof ProgramVerdictSchema>;

/** The program verdict summarising `tests`. */
export function summarizeTests(tests: TestResult[]): ProgramVerdict {
  const failure = tests.find((test) => test.verdict !== "accepted");
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
