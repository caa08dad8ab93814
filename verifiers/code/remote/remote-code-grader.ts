/**
 * The code grader on SandboxFusion-compatible services (`--sandbox URL[,URL…]`): stdin tests as one run each, function-call
 * tests as one harness run (split into several when a service refuses it as too large or too long), stdout and
 * returned values compared here, so expected outputs never leave this process. Assert tests carry their expected
 * values inside the test code, which a program sharing their process could read, so they are graded in the local
 * sandbox (its trusted checker runs them apart from the program) or left unscored. A problem no service could run is
 * graded in the local sandbox too, or is an infrastructure error with each service's reason: a service's limit or
 * fault is never the program's failure.
 */
import { failureFromError, failureFromStderr, type OutcomeVerdict } from "../classify-outcome.js";
import { compareStdout } from "../compare-stdout.js";
import type { CodeProblem, ProgramGrader } from "../program-grader.js";
import { parsePythonJson, pythonEquals, type PythonValue } from "../python-value.js";
import { infraVerdict, summarizeTests, type ProgramVerdict, type TestResult } from "../test-verdict.js";
import { functionalProgram, functionalStdin, newResultMarker, readHarnessOutput } from "./functional-harness.js";
import {
  AllHostsFailedError,
  outputExceededNote,
  sandboxFusionCapturedBytes,
  type PooledRunResult,
  type RemotePrograms,
  type RunCodeRequest,
  type RunCodeResponse,
} from "rllm-ts/core";

export interface RemoteCodeGraderOptions {
  timeoutSeconds: number;
  runAllTests: boolean;
  floatTolerance?: number;
  /**
   * Opens the local sandbox, for assert tests and for a problem no service could run; absent or failing, assert
   * problems are unscored and such a problem is an infrastructure error.
   */
  openLocal?: () => Promise<ProgramGrader>;
}

/** A test's expected value does not decode: the dataset's fault, never the program's (as in the local grader). */
class ExpectedValueError extends Error {}

// The exit code our own service's programs use for a denied action (python/program_host.py); harmless elsewhere.
const deniedExitCode = 86;

/** Grades programs on remote sandbox services; never grades a problem twice, and never blames a program for a service. */
export class RemoteCodeGrader implements ProgramGrader {
  readonly notice = undefined;

  constructor(
    /** The hosts programs run on (the run's; this grader holds nothing of its own to close). */
    readonly programs: RemotePrograms,
    private readonly options: RemoteCodeGraderOptions,
  ) {}

  /** How many problems it grades at once. */
  get concurrency(): number {
    return this.programs.concurrency;
  }

  async grade(problem: CodeProblem): Promise<ProgramVerdict> {
    if (problem.tests.length === 0) return infraVerdict("no tests: a problem without tests cannot be graded");
    if (problem.tests.some((test) => test.kind === "assert")) return this.gradeLocally(problem);
    try {
      const stdio = problem.tests.flatMap((test, index) => (test.kind === "stdin" ? [{ input: test.input, output: test.output, index }] : []));
      const calls = problem.tests.flatMap((test, index) => (test.kind === "functional" ? [{ input: test.input, output: test.output, index }] : []));
      const results = [...(await this.gradeStdio(problem.program, stdio))];
      const stopped = !this.options.runAllTests && results.some((result) => result.verdict !== "accepted");
      if (calls.length > 0) {
        if (stopped || !problem.fnName) results.push(...calls.map(({ index }) => ({ index, verdict: "not_run" as const })));
        else results.push(...(await this.gradeCalls(problem.program, problem.fnName, calls)));
      }
      return summarizeTests(results.sort((left, right) => left.index - right.index));
    } catch (error) {
      if (error instanceof ExpectedValueError) return infraVerdict(error.message, problem.tests.length);
      if (error instanceof AllHostsFailedError) return this.gradeInstead(problem, error.message);
      throw error;
    }
  }

  private async gradeStdio(program: string, tests: { input: string; output: string; index: number }[]): Promise<TestResult[]> {
    const results: TestResult[] = [];
    for (const { input, output, index } of tests) {
      if (results.some((result) => result.verdict !== "accepted") && !this.options.runAllTests) {
        results.push({ index, verdict: "not_run" });
        continue;
      }
      const result = await this.programs.run(this.request(program, input, this.options.timeoutSeconds));
      const failure = replyFailure(result.response);
      if (failure) {
        results.push({ index, ...failure });
        continue;
      }
      // Output the service may have cut short can neither pass nor fail: the problem is graded elsewhere.
      const cut = cutShort(result);
      if (cut) throw new AllHostsFailedError([cut], false);
      const stdout = result.response.run_result?.stdout ?? "";
      const comparison = compareStdout(stdout, output, { floatTolerance: this.options.floatTolerance });
      results.push(comparison.isMatch ? { index, verdict: "accepted" } : { index, verdict: "wrong_answer", detail: comparison.detail });
    }
    return results;
  }

  private async gradeCalls(program: string, fnName: string, tests: { input: string; output: string; index: number }[]): Promise<TestResult[]> {
    // Expected values are decoded before anything runs; an undecodable one is the payload's fault, not the program's.
    const expected = tests.map(({ output, index }) => {
      try {
        return parsePythonJson(output);
      } catch (error) {
        throw new ExpectedValueError(`test ${index + 1}: expected output is not JSON: ${(error as Error).message}`);
      }
    });
    return this.gradeCallRun(program, fnName, tests.map((test, position) => ({ ...test, expected: expected[position]! })));
  }

  /**
   * One harness run for `tests`. When every service refuses it as such (its body or its run_timeout over a service's
   * limit; `rllm sandbox serve` allows 300 s, and 60 tests at 6 s need (6 + 1) · 60 + 5 = 425), or its output may
   * have been cut short, its halves run in turn, down to single tests; a single test no service runs whole is left to
   * the caller.
   */
  private async gradeCallRun(program: string, fnName: string, tests: { input: string; index: number; expected: PythonValue }[]): Promise<TestResult[]> {
    // The whole-problem guard of the local grader: (timeout + 1) · n + 5 seconds.
    const seconds = (this.options.timeoutSeconds + 1) * tests.length + 5;
    // A marker of this run's own: a service that echoes result lines it saw before (or a fixed marker) forges nothing.
    const marker = newResultMarker();
    let result: PooledRunResult | undefined;
    let unfit: AllHostsFailedError | undefined;
    try {
      result = await this.programs.run(this.request(functionalProgram(program, fnName, marker), functionalStdin(tests.map(({ input }) => input)), seconds));
    } catch (error) {
      if (!(error instanceof AllHostsFailedError && error.isRequestRejected)) throw error;
      unfit = error;
    }
    const cut = result && cutShort(result);
    if (!result || cut) {
      if (tests.length === 1) throw unfit ?? new AllHostsFailedError([cut!], false);
      const half = Math.ceil(tests.length / 2);
      const first = await this.gradeCallRun(program, fnName, tests.slice(0, half));
      if (!this.options.runAllTests && first.some((result) => result.verdict !== "accepted")) return [...first, ...tests.slice(half).map(({ index }) => ({ index, verdict: "not_run" as const }))];
      return [...first, ...(await this.gradeCallRun(program, fnName, tests.slice(half)))];
    }
    const { response } = result;
    const read = readHarnessOutput(response.run_result?.stdout ?? "", tests.length, marker);
    if ("tampered" in read) return blameFirst(tests, { verdict: "wrong_answer", detail: `the program tampered with the result lines (${read.tampered})` }, []);
    const results: TestResult[] = [];
    for (const [position, { index, expected }] of tests.entries()) {
      const record = read.records.find((candidate) => candidate.index === position);
      if (!record) break;
      if (record.error !== undefined) results.push({ index, ...failureFromError(record.error) });
      else {
        const isMatch = pythonEquals(parsePythonJson(record.valueJson!, { tagged: true }), expected, { floatTolerance: this.options.floatTolerance });
        results.push(isMatch ? { index, verdict: "accepted" } : { index, verdict: "wrong_answer", detail: "returned value differs" });
      }
      if (results.at(-1)!.verdict !== "accepted" && !this.options.runAllTests) return [...results, ...tests.slice(position + 1).map(({ index: rest }) => ({ index: rest, verdict: "not_run" as const }))];
    }
    if (results.length === tests.length) return results;
    // The run ended before every call reported: the first unreported test takes the blame.
    const failure = replyFailure(response) ?? { verdict: "runtime_error" as const, detail: "the program ended before the tests finished" };
    return blameFirst(tests, failure, results);
  }

  // The memory limit is the hosts' (remote-programs.ts fills in the run's).
  private request(code: string, stdin: string, runTimeoutSeconds: number): RunCodeRequest {
    return { language: "python", code, stdin, run_timeout: runTimeoutSeconds, compile_timeout: 10, files: {}, fetch_files: [] };
  }

  private async gradeLocally(problem: CodeProblem): Promise<ProgramVerdict> {
    if (!this.options.openLocal) return assertsUnsupported("no local sandbox was configured");
    try {
      return await (await this.options.openLocal()).grade(problem);
    } catch (error) {
      return assertsUnsupported((error as Error).message);
    }
  }

  /** A problem no service could run (`reason`, each service's): graded in the local sandbox, else an infrastructure error. */
  private async gradeInstead(problem: CodeProblem, reason: string): Promise<ProgramVerdict> {
    if (!this.options.openLocal) return infraVerdict(`${reason}; no local sandbox to grade it instead`, problem.tests.length);
    try {
      return await (await this.options.openLocal()).grade(problem);
    } catch (error) {
      return infraVerdict(`${reason}; the local sandbox could not grade it either: ${(error as Error).message}`, problem.tests.length);
    }
  }
}

/** Why the program's run failed (a time limit, its exit status, the output cap), or undefined for a clean exit. */
function replyFailure(response: RunCodeResponse): OutcomeVerdict | undefined {
  const run = response.run_result!;
  if (run.status === "TimeLimitExceeded") return { verdict: "time_limit", detail: `over ${run.execution_time ?? "its"} s` };
  if (run.return_code === 0) return undefined;
  if ((run.stderr ?? "").includes(outputExceededNote)) return { verdict: "wrong_answer", detail: "output exceeded the service's limit" };
  return failureFromStderr(run.stderr ?? "", run.return_code ?? null, deniedExitCode);
}

/**
 * Why `result`'s stdout may have been cut short, or undefined: a service that states no output limit is taken to keep
 * only SandboxFusion's first 1 MiB, and output that reached it may have lost its end (a right answer's, or the junk a
 * wrong program printed after a right one). A service that states its limit says so in stderr when a run goes past it.
 */
function cutShort(result: PooledRunResult): string | undefined {
  if (result.limits.outputBytes !== undefined) return undefined;
  const bytes = Buffer.byteLength(result.response.run_result?.stdout ?? "", "utf8");
  // A character cut at the limit decodes to one replacement character (3 bytes) or to none.
  if (bytes < sandboxFusionCapturedBytes - 3) return undefined;
  return `sandbox service ${result.host}: its stdout reached ${bytes} bytes, where SandboxFusion stops keeping output, so its end may be lost`;
}

function blameFirst(tests: { index: number }[], failure: OutcomeVerdict, reported: TestResult[]): TestResult[] {
  const rest = tests.slice(reported.length);
  return [...reported, ...rest.map(({ index }, position): TestResult => (position === 0 ? { index, ...failure } : { index, verdict: "not_run" }))];
}

function assertsUnsupported(reason: string): ProgramVerdict {
  const detail = `assert tests are graded only in the local sandbox (a remote run would let the program read their expected values): ${reason}`;
  return { passed: false, verdict: "unsupported", passedTests: 0, totalTests: 0, tests: [], detail };
}
