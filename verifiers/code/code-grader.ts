/** The code grader: runs one program against its tests on a local program sandbox's slots (a fresh forked run per job) and returns per-test verdicts (reward 1 only if all pass). */
import { z } from "zod";
import { SandboxLimitsSchema, type LocalPrograms } from "rllm-ts/core";
import type { CodeProblem, ProgramGrader } from "./program-grader.js";
import { gradeCallTests } from "./grade-call-tests.js";
import { gradeStdioTests } from "./grade-stdio-tests.js";
import type { RunContext } from "./run-context.js";
import { infraVerdict, summarizeTests, type ProgramVerdict, type TestResult } from "./test-verdict.js";

/** How programs are graded: per-test time limit, first-failure stop, numeric tolerance. */
export const CodeGradingOptionsSchema = z
  .object({
    /** Per-test wall-clock limit, seconds (LiveCodeBench and DeepCoder use 6). */
    timeoutSeconds: z.number().positive().default(6),
    /** Run every test instead of stopping at the first failure. */
    runAllTests: z.boolean().default(false),
    /** Numeric tolerance for stdout tokens and function results; exact comparison when absent. */
    floatTolerance: z.number().nonnegative().optional(),
  })
  .strict();
export type CodeGradingOptions = z.input<typeof CodeGradingOptionsSchema>;

/** `CodeGrader.create`'s options: the grading options, and the local sandbox it opens for itself. */
export const CodeGraderOptionsSchema = CodeGradingOptionsSchema.extend({
  /** Sandboxes run at once (default: all cores). */
  concurrency: z.number().int().positive().optional(),
  /** Run without bubblewrap (rlimits only) when no sandbox is available. */
  unsafeNoSandbox: z.boolean().default(false),
  /** Python command to use (default: the run's resolution, resolve-python.ts). */
  python: z.string().optional(),
  limits: SandboxLimitsSchema.partial().default({}),
}).strict();
export type CodeGraderOptions = z.input<typeof CodeGraderOptionsSchema>;

/** Grades programs on local program slots; a run's grader borrows its slots, one from `CodeGrader.create` owns its own. */
export class CodeGrader implements ProgramGrader {
  private readonly options: z.infer<typeof CodeGradingOptionsSchema>;

  constructor(
    /** The slots programs run in. */
    readonly programs: LocalPrograms,
    options: CodeGradingOptions = {},
    private readonly ownsPrograms = false,
  ) {
    this.options = CodeGradingOptionsSchema.parse(options);
  }

  /** Opens a local sandbox's slots for this grader alone (probed; SandboxUnavailableError when it does not work); `close` closes them. */
  static async create(options: CodeGraderOptions = {}): Promise<CodeGrader> {
    const { concurrency, unsafeNoSandbox, python, limits, ...grading } = CodeGraderOptionsSchema.parse(options);
    // Imported here: a run's grader borrows the run's slots and needs none of the sandbox's modules of its own.
    const { createLocalSandbox } = await import("rllm-ts/sandbox");
    const sandbox = createLocalSandbox({ provider: "local", unsafeNoSandbox, ...(python !== undefined ? { python } : {}) });
    const programs = await sandbox.openPrograms({ concurrency, limits });
    if (programs.kind !== "local") throw new Error("the local sandbox opened remote programs");
    return new CodeGrader(programs, grading, true);
  }

  /** Closes the slots when this grader opened them (`create`); a run's slots are the run's to close. */
  async close(): Promise<void> {
    if (this.ownsPrograms) await this.programs.close();
  }

  /** Said once per run when the isolation is weaker than documented (no cgroups). */
  get notice(): string | undefined {
    return this.programs.notice;
  }

  /** How many programs it grades at once. */
  get concurrency(): number {
    return this.programs.concurrency;
  }

  /** Runs `problem` and returns its verdict; infrastructure failures come back as an infra_error verdict, never a pass. */
  async grade(problem: CodeProblem): Promise<ProgramVerdict> {
    if (problem.tests.length === 0) return infraVerdict("no tests: a problem without tests cannot be graded");
    const context = this.context();
    const results: TestResult[] = [];
    // Tests of one kind run together; a problem normally has one kind.
    const stdio = problem.tests.flatMap((test, index) => (test.kind === "stdin" ? [{ test, index }] : []));
    const calls = problem.tests.flatMap((test, index) => (test.kind !== "stdin" ? [{ test, index }] : []));
    try {
      if (stdio.length > 0) results.push(...(await gradeStdioTests(context, problem.program, stdio)));
      const stopped = !this.options.runAllTests && results.some((result) => result.verdict !== "accepted");
      if (calls.length > 0) {
        if (stopped) results.push(...calls.map(({ index }) => ({ index, verdict: "not_run" as const })));
        else results.push(...(await gradeCallTests(context, problem.program, calls, problem.fnName)));
      }
    } catch (error) {
      return infraVerdict((error as Error).message, problem.tests.length);
    }
    return summarizeTests(results.sort((left, right) => left.index - right.index));
  }

  private context(): RunContext {
    return {
      run: (job, budget, onRecord) => this.programs.run(job, budget, onRecord),
      deniedExitCode: this.programs.deniedExitCode,
      limits: this.programs.limits,
      timeoutMs: this.options.timeoutSeconds * 1000,
      runAllTests: this.options.runAllTests,
      floatTolerance: this.options.floatTolerance,
    };
  }
}
