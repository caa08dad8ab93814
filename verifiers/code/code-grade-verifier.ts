/** The `code` GradeVerifier behind `rllm grade --verifier code`: rows {id?, response, tests, fn_name?} run in the sandbox. */
import pLimit from "p-limit";
import { z } from "zod";
import { parseSetOptions, scored, unscored, type Score } from "rllm-ts/core";
import type { GradeVerifier } from "../grade-verifier.js";
import { codeGradingPool } from "./code-pool.js";
import type { ProgramGrader } from "./program-grader.js";
import { extractProgram } from "./extract-code.js";
import { type NormalizedTests, normalizeTests, TestDecodeError } from "./normalize-tests.js";
import type { ProgramVerdict } from "./test-verdict.js";

export const CodeRowSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    /** A model reply (its last fenced code block is run) or a bare program. */
    response: z.string(),
    /** Any encoding normalizeTests reads: a list, a TACO dict, or either as a JSON string. */
    tests: z.unknown().refine((tests) => tests !== undefined && tests !== null, "tests are required"),
    fn_name: z.string().nullish(),
  })
  .passthrough();
export type CodeRow = z.infer<typeof CodeRowSchema>;

/**
 * Verifier flags, from `--set key=value` or the grade command's own code flags. Where programs run (`--sandbox`, its
 * interpreter, --unsafe-no-sandbox) is the run's sandbox, not a verifier flag.
 */
export const CodeFlagsSchema = z
  .object({
    timeout: z.coerce.number().positive().default(6),
    runAllTests: z.boolean().default(false),
    floatTolerance: z.coerce.number().nonnegative().optional(),
    memoryMb: z.coerce.number().int().positive().optional(),
  })
  .strict();

export const codeGradeVerifier: GradeVerifier<CodeRow> = {
  name: "code",
  description: "Programs run in the run's sandbox (--sandbox) against stdin/stdout, function-call or assert tests; correct only if every test passes.",
  rowSchema: CodeRowSchema,
  async gradeRows(rows, options, context) {
    const flags = parseSetOptions(CodeFlagsSchema, options.flags, 'verifier "code"');
    // The run's slots (opened as `rllm grade` started), or for a memory cap of its own, slots of that cap.
    const pool = await context.pool(codeGradingPool(flags.memoryMb === undefined ? undefined : { memoryBytes: flags.memoryMb * 1024 * 1024 }));
    const grader = pool.grader({ timeoutSeconds: flags.timeout, runAllTests: flags.runAllTests, floatTolerance: flags.floatTolerance });
    // Each problem runs its tests one after another; problems share the sandbox slots.
    const limit = pLimit(grader.concurrency);
    let done = 0;
    const verdicts = await Promise.all(
      rows.map((row) =>
        limit(async () => {
          const verdict = await gradeRow(grader, row);
          done += 1;
          options.onProgress?.(done, rows.length);
          return verdict;
        }),
      ),
    );
    // Said once per run: without cgroups the memory and process caps hold per process, not per sandbox.
    if (grader.notice && verdicts[0]) verdicts[0].details = { ...verdicts[0].details, sandboxNotice: grader.notice };
    return verdicts;
  },
};

/** Grades one row: an undecodable or empty test payload makes the row unscored, never a pass. */
async function gradeRow(grader: ProgramGrader, row: CodeRow): Promise<Score> {
  const program = extractProgram(row.response);
  let normalized: NormalizedTests;
  try {
    normalized = normalizeTests(row.tests, row.fn_name);
  } catch (error) {
    if (!(error instanceof TestDecodeError)) throw error;
    return unscored(error.message, { answer: program });
  }
  if (program.trim() === "") return scored(0, false, { answer: program, explanation: "no program in the response" });
  const verdict = await grader.grade({ program, tests: normalized.tests, fnName: normalized.fnName });
  return verdictScore(program, verdict);
}

/**
 * The Score of one program verdict: signals passedTests, totalTests, timedOut. A sandbox failure is unscored with
 * infraError; a verdict of unsupported (a test that cannot run as written, which no program can cause, and no test the
 * program failed: that failure would be the verdict) is unscored too, never a pass and never a 0.
 */
function verdictScore(program: string, verdict: ProgramVerdict): Score {
  const signals = { passedTests: verdict.passedTests, totalTests: verdict.totalTests, timedOut: verdict.verdict === "time_limit" ? 1 : 0 };
  const details = { verdict: verdict.verdict, tests: verdict.tests };
  const explanation = verdict.passed ? `all ${verdict.totalTests} tests passed` : (verdict.detail ?? verdict.verdict);
  if (verdict.verdict === "infra_error") return unscored(explanation, { answer: program, signals: { ...signals, infraError: 1 }, details });
  if (verdict.verdict === "unsupported") return unscored(explanation, { answer: program, signals, details });
  return scored(verdict.passed ? 1 : 0, verdict.passed, { answer: program, explanation, signals, details });
}
