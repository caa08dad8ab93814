/**
 * Function-call and assert tests: one sandboxed job per problem. A trusted checker process, which never loads the
 * program, calls the program's functions over a pipe and reports one record per test; values are compared here, so
 * expected outputs never enter the sandbox, and the record channel never exists in the program's process.
 */
import { classifyOutcome, failureFromError, type OutcomeVerdict } from "./classify-outcome.js";
import type { RunContext } from "./run-context.js";
import type { TestCase } from "./normalize-tests.js";
import { parsePythonJson, pythonEquals, type PythonValue } from "./python-value.js";
import type { ProcessOutcome } from "rllm-ts/core";
import { TestVerdictKindSchema, type TestResult } from "./test-verdict.js";

interface CheckerRecord {
  index?: number;
  value?: PythonValue;
  error?: string;
  /** The checker's own verdict for a policy breach (unsupported, plain-data, call-channel). */
  verdict?: string;
  /** The program's process ended during this test. */
  ended?: boolean;
  end?: boolean;
}

/** The trusted checker ended without its end record, and neither the program nor a limit was to blame. */
class CheckerDiedError extends Error {
  constructor(
    readonly stderrTail: string,
    /** What the checker reported before it died, by position in the problem's tests. */
    readonly results: (TestResult | undefined)[],
  ) {
    super(`the trusted checker ended without its end record${stderrTail}`);
  }
}

// A known-good problem run on the grader's sandbox right after a checker death: it tells whether the checker can work.
const controlProgram = "def control():\n    return 1\n";
const controlTests = [{ test: { kind: "assert", code: "assert control() == 1\n" } as TestCase, index: 0 }];

/** Verdicts of functional or assert `tests` (with their indices in the problem) for `program`. */
export async function gradeCallTests(
  context: RunContext,
  program: string,
  tests: { test: TestCase; index: number }[],
  fnName: string | undefined,
): Promise<TestResult[]> {
  // A checker death with no cause found was seen about once in 1,500 problems under load, also on correct programs
  // (code-dev's he-0-adv-stdout_noise in a CI run), and the program can no longer reach the checker (seccomp). So a
  // first death gives the problem one more run on a fresh fork and checker, whose verdict stands; a second death is
  // blamed by a known-good control: when it passes, the sandbox works and the deaths are the program's doing (a score
  // of 0 with the reason); only a control that fails too makes the problem an infrastructure error.
  let outcome = await attemptCallTests(context, program, tests, fnName);
  if (outcome instanceof CheckerDiedError) outcome = await attemptCallTests(context, program, tests, fnName);
  if (!(outcome instanceof CheckerDiedError)) return outcome;
  const death = outcome;
  const control = await gradeControl(context);
  if (control !== undefined) throw new Error(`${death.message}; a known-good control failed right after (${control}): the sandbox is at fault`);
  return blameProgram(tests, death.results, `sandbox policy: the trusted checker ended while this program ran, twice (a known-good control passed right after)${death.stderrTail}`);
}

/** One run's verdicts, or the checker's death as a value (an Error, with its stack trace, is built only when one dies). */
async function attemptCallTests(
  context: RunContext,
  program: string,
  tests: { test: TestCase; index: number }[],
  fnName: string | undefined,
): Promise<TestResult[] | CheckerDiedError> {
  try {
    return await gradeCallTestsOnce(context, program, tests, fnName);
  } catch (error) {
    if (error instanceof CheckerDiedError) return error;
    throw error;
  }
}

/** undefined when the known-good control passes; otherwise why it did not. */
async function gradeControl(context: RunContext): Promise<string | undefined> {
  try {
    const [result] = await gradeCallTestsOnce({ ...context, runAllTests: false }, controlProgram, controlTests, undefined);
    return result?.verdict === "accepted" ? undefined : `${result?.verdict}${result?.detail ? `: ${result.detail}` : ""}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Reported results stand; the first unreported test fails with `detail`, the rest did not run. */
function blameProgram(tests: { test: TestCase; index: number }[], results: (TestResult | undefined)[], detail: string): TestResult[] {
  const blamed = results.indexOf(undefined);
  return tests.map(({ index }, position) => results[position] ?? (position === blamed ? { index, verdict: "runtime_error", detail } : { index, verdict: "not_run" }));
}

async function gradeCallTestsOnce(
  context: RunContext,
  program: string,
  tests: { test: TestCase; index: number }[],
  fnName: string | undefined,
): Promise<TestResult[]> {
  const isAssert = tests.every(({ test }) => test.kind === "assert");
  if (!isAssert && tests.some(({ test }) => test.kind === "assert")) throw new Error("a problem cannot mix assert tests with function-call tests");
  if (!isAssert && !fnName) throw new Error("function-call tests need a function name (fn_name)");
  // Expected values are decoded before anything runs: an undecodable payload is an infrastructure error.
  const expected = tests.map(({ test, index }) => {
    if (test.kind !== "functional") return undefined;
    try {
      return parsePythonJson(test.output);
    } catch (error) {
      throw new Error(`test ${index + 1}: expected output is not JSON: ${(error as Error).message}`);
    }
  });
  const results: (TestResult | undefined)[] = tests.map(() => undefined);
  let ended = false;
  let programEnded = false;
  let checkerFault: string | undefined;
  let lastReport = performance.now();

  const onRecord = (line: string): "continue" | "stop" => {
    const record = readRecord(line);
    if (record?.end) {
      ended = results.every((result) => result !== undefined);
      return "continue"; // the checker exits by itself right after the end record
    }
    const position = record?.index;
    if (!record || position === undefined || position < 0 || position >= tests.length || results[position] !== undefined) {
      checkerFault = `the trusted checker sent an unexpected record: ${line.slice(0, 200)}`;
      return "stop";
    }
    if (record.ended) {
      programEnded = true;
      return "stop";
    }
    const now = performance.now();
    const wallMs = Math.round(now - lastReport);
    lastReport = now;
    const index = tests[position]!.index;
    const policyVerdict = TestVerdictKindSchema.safeParse(record.verdict);
    if (record.error !== undefined) {
      results[position] = { index, ...(policyVerdict.success ? { verdict: policyVerdict.data, detail: record.error } : failureFromError(record.error)), wallMs };
    } else if (isAssert) {
      results[position] = { index, verdict: "accepted", wallMs };
    } else {
      const isMatch = record.value !== undefined && pythonEquals(record.value, expected[position]!, { floatTolerance: context.floatTolerance });
      results[position] = isMatch ? { index, verdict: "accepted", wallMs } : { index, verdict: "wrong_answer", detail: "returned value differs", wallMs };
    }
    // An unsupported test (the test's own fault) does not end the job: a later test the program fails still scores it.
    const verdict = results[position]!.verdict;
    return verdict !== "accepted" && verdict !== "unsupported" && !context.runAllTests ? "stop" : "continue";
  };

  const seconds = context.timeoutMs / 1000;
  const outcome = await context.run(
    isAssert
      ? { mode: "assert", program, asserts: tests.map(({ test }) => (test.kind === "assert" ? test.code : "")), runAll: context.runAllTests }
      : { mode: "functional", program, inputs: tests.map(({ test }) => (test.kind === "functional" ? test.input : "")), fnName, runAll: context.runAllTests },
    // The guard of LiveCodeBench: (timeout + 1) · n + 5 seconds for the whole process.
    { idleTimeoutMs: context.timeoutMs, deadlineMs: (context.timeoutMs + 1000) * tests.length + 5000, cpuSeconds: (seconds + 1) * tests.length + 1 },
    onRecord,
  );
  if (checkerFault) throw new Error(checkerFault);
  if (ended) return results as TestResult[];
  // No end record: the first unreported test takes the blame (the program's failure, a time limit), the rest did not run.
  let blamed = results.some((result) => result !== undefined && result.verdict !== "accepted");
  const failure = programFailure(outcome, context, programEnded);
  // The trusted checker died, and neither the program's exit nor a limit explains it: the caller decides whose fault it was.
  if (!blamed && failure === undefined) throw new CheckerDiedError(outcome.sandboxFailure ? `: ${outcome.sandboxFailure.slice(0, 300)}` : tail(outcome.checkerStderr), results);
  return tests.map(({ index }, position): TestResult => {
    const result = results[position];
    if (result) return result;
    if (!blamed && failure) {
      blamed = true;
      return { index, ...failure };
    }
    return { index, verdict: "not_run" };
  });
}

/** Why the run ended before every test reported, when the program or a limit is to blame (undefined: the checker died). */
function programFailure(outcome: ProcessOutcome, context: RunContext, programEnded: boolean): OutcomeVerdict | undefined {
  if (!(outcome.memoryCapHit || outcome.outputLimitExceeded || outcome.timedOut || programEnded)) return undefined;
  const failure = classifyOutcome({ ...outcome, stoppedEarly: false }, context.deniedExitCode, context.limits.outputBytes);
  return failure ?? { verdict: "runtime_error", detail: `the program ended before the tests finished (exit code ${outcome.exitCode})${tail(outcome.stderr)}` };
}

function readRecord(line: string): CheckerRecord | undefined {
  let parsed: PythonValue;
  try {
    parsed = parsePythonJson(line, { tagged: true });
  } catch {
    return undefined;
  }
  if (parsed.type !== "dict") return undefined;
  const record: CheckerRecord = {};
  for (const [key, value] of parsed.entries) {
    if (key.type !== "str") return undefined;
    if (key.value === "i" && value.type === "int") record.index = Number(value.value);
    else if (key.value === "value") record.value = value;
    else if (key.value === "error" && value.type === "str") record.error = value.value;
    else if (key.value === "verdict" && value.type === "str") record.verdict = value.value;
    else if (key.value === "ended" && value.type === "bool") record.ended = value.value;
    else if (key.value === "end" && value.type === "bool") record.end = value.value;
  }
  return record;
}

function tail(stderr: string): string {
  const line = stderr.trim().split("\n").pop()?.trim() ?? "";
  return line === "" ? "" : `: ${line.slice(0, 200)}`;
}
