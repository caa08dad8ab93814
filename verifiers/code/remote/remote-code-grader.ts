/**
 * The code grader on SandboxFusion-compatible services (`--sandbox-url`): stdin tests as one run each, function-call
 * tests as one harness run, stdout and returned values compared here, so expected outputs never leave this process.
 * Assert tests carry their expected values inside the test code, which a program sharing their process could read, so
 * they are graded in the local sandbox (its trusted checker runs them apart from the program) or left unscored.
 */
import { failureFromError, failureFromStderr, type OutcomeVerdict } from "../classify-outcome.js";
import { compareStdout } from "../compare-stdout.js";
import type { CodeProblem, ProgramGrader } from "../program-grader.js";
import { parsePythonJson, pythonEquals } from "../python-value.js";
import { infraVerdict, summarizeTests, type ProgramVerdict, type TestResult } from "../test-verdict.js";
import { functionalProgram, functionalStdin, readHarnessOutput } from "./functional-harness.js";
import { AllHostsFailedError, outputExceededNote, SandboxHostPool, type PooledRunResult, type RunCodeResponse } from "rllm-ts/sandbox";

export interface RemoteCodeGraderOptions {
  urls: string[];
  apiKey?: string;
  timeoutSeconds: number;
  runAllTests: boolean;
  floatTolerance?: number;
  memoryMb?: number;
  /** Problems graded at once (default 2 per host: more only wait in the services' queues). */
  concurrency?: number;
  /** Opens the local sandbox for assert tests; absent or failing, assert problems are unscored. */
  openLocal?: () => Promise<ProgramGrader>;
}

/** A test's expected value does not decode: the dataset's fault, never the program's (as in the local grader). */
class ExpectedValueError extends Error {}

// The exit code our own service's programs use for a denied action (python/program_host.py); harmless elsewhere.
const deniedExitCode = 86;

/** Grades programs on remote sandbox services; never grades a problem twice, and a host failure is infra only when proven. */
export class RemoteCodeGrader implements ProgramGrader {
  readonly concurrency: number;
  readonly notice = undefined;
  private readonly pool: SandboxHostPool;
  private local: Promise<ProgramGrader> | undefined;

  constructor(private readonly options: RemoteCodeGraderOptions) {
    this.pool = new SandboxHostPool(options.urls, { apiKey: options.apiKey });
    this.concurrency = options.concurrency ?? 2 * options.urls.length;
  }

  /** Runs and failures per host. */
  get hostStatistics(): { url: string; runs: number; failures: number }[] {
    return this.pool.statistics;
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
      if (error instanceof AllHostsFailedError || error instanceof ExpectedValueError) return infraVerdict(error.message, problem.tests.length);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.local) await (await this.local.catch(() => undefined))?.close();
  }

  private async gradeStdio(program: string, tests: { input: string; output: string; index: number }[]): Promise<TestResult[]> {
    const results: TestResult[] = [];
    for (const { input, output, index } of tests) {
      if (results.some((result) => result.verdict !== "accepted") && !this.options.runAllTests) {
        results.push({ index, verdict: "not_run" });
        continue;
      }
      const result = await this.pool.run(this.request(program, input, this.options.timeoutSeconds));
      const failure = runFailure(result);
      if (failure) {
        results.push({ index, ...failure });
        continue;
      }
      const stdout = result.kind === "reply" ? (result.response.run_result?.stdout ?? "") : "";
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
    // One run for all calls, with the whole-problem guard of the local grader: (timeout + 1) · n + 5 seconds.
    const seconds = (this.options.timeoutSeconds + 1) * tests.length + 5;
    const result = await this.pool.run(this.request(functionalProgram(program, fnName), functionalStdin(tests.map(({ input }) => input)), seconds));
    const response = result.kind === "reply" ? result.response : undefined;
    const read = readHarnessOutput(response?.run_result?.stdout ?? "", tests.length);
    if ("tampered" in read) return blameFirst(tests, { verdict: "wrong_answer", detail: `the program tampered with the result lines (${read.tampered})` }, []);
    const results: TestResult[] = [];
    for (const [position, { index }] of tests.entries()) {
      const record = read.records.find((candidate) => candidate.index === position);
      if (!record) break;
      if (record.error !== undefined) results.push({ index, ...failureFromError(record.error) });
      else {
        const isMatch = pythonEquals(parsePythonJson(record.valueJson!, { tagged: true }), expected[position]!, { floatTolerance: this.options.floatTolerance });
        results.push(isMatch ? { index, verdict: "accepted" } : { index, verdict: "wrong_answer", detail: "returned value differs" });
      }
      if (results.at(-1)!.verdict !== "accepted" && !this.options.runAllTests) return [...results, ...tests.slice(position + 1).map(({ index: rest }) => ({ index: rest, verdict: "not_run" as const }))];
    }
    if (results.length === tests.length) return results;
    // The run ended before every call reported: the first unreported test takes the blame.
    const failure = runFailure(result) ?? { verdict: "runtime_error" as const, detail: "the program ended before the tests finished" };
    return blameFirst(tests, failure, results);
  }

  private request(code: string, stdin: string, runTimeoutSeconds: number) {
    return {
      language: "python",
      code,
      stdin,
      run_timeout: runTimeoutSeconds,
      compile_timeout: 10,
      memory_limit_MB: this.options.memoryMb ?? -1,
      files: {},
      fetch_files: [],
    };
  }

  private async gradeLocally(problem: CodeProblem): Promise<ProgramVerdict> {
    if (!this.options.openLocal) return assertsUnsupported("no local sandbox was configured");
    this.local ??= this.options.openLocal();
    try {
      return await (await this.local).grade(problem);
    } catch (error) {
      return assertsUnsupported((error as Error).message);
    }
  }
}

/** Why a run failed (time limit, exit status, a failure the control run pinned on the program), or undefined. */
function runFailure(result: PooledRunResult): OutcomeVerdict | undefined {
  if (result.kind === "program-failure") {
    const detail = `the sandbox service failed on this program and then passed its control run (${result.reason})`;
    return { verdict: result.isTimeout ? "time_limit" : "runtime_error", detail };
  }
  return replyFailure(result.response);
}

function replyFailure(response: RunCodeResponse): OutcomeVerdict | undefined {
  const run = response.run_result;
  if (!run) return { verdict: "runtime_error", detail: `no run result: ${response.message}` };
  if (run.status === "TimeLimitExceeded") return { verdict: "time_limit", detail: `over ${run.execution_time ?? "its"} s` };
  if (run.status === "Error") return { verdict: "runtime_error", detail: `the service could not finish the run: ${response.message}` };
  if (run.return_code === 0) return undefined;
  if ((run.stderr ?? "").includes(outputExceededNote)) return { verdict: "wrong_answer", detail: "output exceeded the service's limit" };
  return failureFromStderr(run.stderr ?? "", run.return_code ?? null, deniedExitCode);
}

function blameFirst(tests: { index: number }[], failure: OutcomeVerdict, reported: TestResult[]): TestResult[] {
  const rest = tests.slice(reported.length);
  return [...reported, ...rest.map(({ index }, position): TestResult => (position === 0 ? { index, ...failure } : { index, verdict: "not_run" }))];
}

function assertsUnsupported(reason: string): ProgramVerdict {
  const detail = `assert tests are graded only in the local sandbox (a remote run would let the program read their expected values): ${reason}`;
  return { passed: false, verdict: "unsupported", passedTests: 0, totalTests: 0, tests: [], detail };
}
