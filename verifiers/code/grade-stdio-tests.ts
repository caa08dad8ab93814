/** stdin/stdout tests: one fresh sandboxed process per test, stdout compared LiveCodeBench-style, stop at the first failure. */
import { classifyOutcome } from "./classify-outcome.js";
import type { RunContext } from "./run-context.js";
import { compareStdout } from "./compare-stdout.js";
import type { TestCase } from "./normalize-tests.js";
import type { TestResult } from "./test-verdict.js";

// Startup slack on top of the per-test limit before the whole-run guard fires.
const guardSlackMs = 1000;

/** Verdicts of `tests` (with their indices in the problem) for `program`. */
export async function gradeStdioTests(context: RunContext, program: string, tests: { test: TestCase; index: number }[]): Promise<TestResult[]> {
  const results: TestResult[] = [];
  // The overall guard of LiveCodeBench, (timeout + 1) · n + 5 seconds, counted in run time (not time queued for a slot).
  const budgetMs = (context.timeoutMs + 1000) * tests.length + 5000;
  let spentMs = 0;
  let failed = false;
  for (const { test, index } of tests) {
    if (test.kind !== "stdin") continue;
    if (failed && !context.runAllTests) {
      results.push({ index, verdict: "not_run" });
      continue;
    }
    if (spentMs > budgetMs) {
      results.push({ index, verdict: "time_limit", detail: "whole-problem time budget spent" });
      failed = true;
      continue;
    }
    // Room for twice the expected output (trailing spaces are allowed), never less than the configured cap.
    const outputBytes = Math.max(context.limits.outputBytes, 2 * Buffer.byteLength(test.output) + 65_536);
    const outcome = await context.run(
      { mode: "stdio", program, stdin: test.input },
      { idleTimeoutMs: context.timeoutMs, deadlineMs: context.timeoutMs + guardSlackMs, cpuSeconds: context.timeoutMs / 1000 + 1, outputBytes },
    );
    const failure = classifyOutcome(outcome, context.deniedExitCode, outputBytes);
    const wallMs = Math.round(outcome.wallMs);
    spentMs += outcome.wallMs;
    if (failure) {
      results.push({ index, ...failure, wallMs });
      failed = true;
      continue;
    }
    const comparison = compareStdout(outcome.stdout.toString("utf8"), test.output, { floatTolerance: context.floatTolerance });
    results.push(comparison.isMatch ? { index, verdict: "accepted", wallMs } : { index, verdict: "wrong_answer", detail: comparison.detail, wallMs });
    failed ||= !comparison.isMatch;
  }
  return results;
}
