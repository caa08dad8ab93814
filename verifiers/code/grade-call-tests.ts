/**
 * Function-call and assert tests: one sandboxed process per problem. The launcher streams one record per test on fd 3 and
 * ends with the run's nonce; values are compared here, so expected outputs never enter the sandbox, and a program that
 * exits before the tests finish (sys.exit, os._exit) lacks the nonce and fails.
 */
import { classifyOutcome, failureFromError, failureFromStderr } from "./classify-outcome.js";
import { randomBytes } from "node:crypto";
import type { RunContext } from "./run-context.js";
import type { TestCase } from "./normalize-tests.js";
import { parsePythonJson, pythonEquals, type PythonValue } from "./python-value.js";
import type { TestResult } from "./test-verdict.js";

interface CallRecord {
  index?: number;
  value?: PythonValue;
  error?: string;
  end?: string;
}

/** Verdicts of functional or assert `tests` (with their indices in the problem) for `program`. */
export async function gradeCallTests(
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
  const nonce = randomBytes(16).toString("hex");
  const results: (TestResult | undefined)[] = tests.map(() => undefined);
  let ended = false;
  let badRecord: string | undefined;
  let lastReport = performance.now();

  const onRecord = (line: string): "continue" | "stop" => {
    const record = readRecord(line);
    const position = record?.index;
    if (record?.end !== undefined) {
      ended = record.end === nonce && results.every((result) => result !== undefined);
      if (ended) return "continue"; // the launcher exits by itself right after the end record
      badRecord = "end record before every test reported";
      return "stop";
    }
    if (!record || position === undefined || position < 0 || position >= tests.length || results[position] !== undefined) {
      badRecord = `unexpected record on the result channel: ${line.slice(0, 120)}`;
      return "stop";
    }
    const now = performance.now();
    const wallMs = Math.round(now - lastReport);
    lastReport = now;
    const index = tests[position]!.index;
    if (record.error !== undefined) {
      results[position] = { index, ...failureFromError(record.error), wallMs };
    } else if (isAssert) {
      results[position] = { index, verdict: "accepted", wallMs };
    } else {
      const isMatch = record.value !== undefined && pythonEquals(record.value, expected[position]!, { floatTolerance: context.floatTolerance });
      results[position] = isMatch ? { index, verdict: "accepted", wallMs } : { index, verdict: "wrong_answer", detail: "returned value differs", wallMs };
    }
    return results[position]!.verdict !== "accepted" && !context.runAllTests ? "stop" : "continue";
  };

  const seconds = context.timeoutMs / 1000;
  const outcome = await context.run(
    isAssert
      ? { mode: "assert", program, asserts: tests.map(({ test }) => (test.kind === "assert" ? test.code : "")), nonce }
      : { mode: "functional", program, inputs: tests.map(({ test }) => (test.kind === "functional" ? test.input : "")), fnName, nonce },
    // The guard of LiveCodeBench: (timeout + 1) · n + 5 seconds for the whole process.
    { idleTimeoutMs: context.timeoutMs, deadlineMs: (context.timeoutMs + 1000) * tests.length + 5000, cpuSeconds: (seconds + 1) * tests.length + 1 },
    onRecord,
  );
  if (ended) return results as TestResult[];
  // The run ended without its nonce: the first unreported test takes the blame, the rest did not run.
  const failure = badRecord
    ? { verdict: "runtime_error" as const, detail: badRecord }
    : (classifyOutcome(outcome, context.runner.deniedExitCode, context.limits.outputBytes) ??
      (outcome.stoppedEarly ? undefined : { ...failureFromStderr(outcome.stderr, outcome.exitCode, context.runner.deniedExitCode), detail: `exited before the tests finished (exit code ${outcome.exitCode})${tail(outcome.stderr)}` }));
  let blamed = outcome.stoppedEarly && !badRecord;
  const final = tests.map(({ index }, position): TestResult => {
    const result = results[position];
    if (result) return result;
    if (!blamed && failure) {
      blamed = true;
      return { index, ...failure };
    }
    return { index, verdict: "not_run" };
  });
  // Every test reported a pass but the end record never came (the program killed the launcher afterwards): not a pass.
  if (final.every((result) => result.verdict === "accepted")) {
    const last = final[final.length - 1]!;
    final[final.length - 1] = { index: last.index, verdict: "runtime_error", detail: badRecord ?? "the run ended without its end record" };
  }
  return final;
}

function readRecord(line: string): CallRecord | undefined {
  let parsed: PythonValue;
  try {
    parsed = parsePythonJson(line, { tagged: true });
  } catch {
    return undefined;
  }
  if (parsed.type !== "dict") return undefined;
  const record: CallRecord = {};
  for (const [key, value] of parsed.entries) {
    if (key.type !== "str") return undefined;
    if (key.value === "i" && value.type === "int") record.index = Number(value.value);
    else if (key.value === "value") record.value = value;
    else if (key.value === "error" && value.type === "str") record.error = value.value;
    else if (key.value === "end" && value.type === "str") record.end = value.value;
  }
  return record;
}

function tail(stderr: string): string {
  const line = stderr.trim().split("\n").pop()?.trim() ?? "";
  return line === "" ? "" : `: ${line.slice(0, 200)}`;
}
