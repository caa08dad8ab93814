/** The code grader: runs one program against its tests in fresh sandboxes and returns per-test verdicts (reward 1 only if all pass). */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { classifyOutcome } from "./classify-outcome.js";
import type { LanguageRunner, RunJob } from "./language-runner.js";
import { pythonRunner } from "./python-runner.js";
import { runProcess, type ProcessOutcome } from "./sandbox/run-process.js";
import { sandboxCommand } from "./sandbox/sandbox-command.js";
import { detectSandboxHost, type SandboxHost } from "./sandbox/sandbox-host.js";
import { SandboxLimitsSchema, type SandboxLimits } from "./sandbox/sandbox-limits.js";
import { SandboxUnavailableError } from "./sandbox/sandbox-unavailable-error.js";
import { SlotPool } from "./sandbox/slot-pool.js";
import type { TestCase } from "./normalize-tests.js";
import { gradeCallTests } from "./grade-call-tests.js";
import { gradeStdioTests } from "./grade-stdio-tests.js";
import type { RunContext, RunBudget } from "./run-context.js";
import { infraVerdict, summarizeTests, type ProgramVerdict, type TestResult } from "./test-verdict.js";

export const CodeGraderOptionsSchema = z
  .object({
    /** Sandboxes run at once (default: all cores). */
    concurrency: z.number().int().positive().optional(),
    /** Per-test wall-clock limit, seconds (LiveCodeBench and DeepCoder use 6). */
    timeoutSeconds: z.number().positive().default(6),
    /** Run every test instead of stopping at the first failure. */
    runAllTests: z.boolean().default(false),
    /** Numeric tolerance for stdout tokens and function results; exact comparison when absent. */
    floatTolerance: z.number().nonnegative().optional(),
    /** Run without bubblewrap (rlimits only) when no sandbox is available. */
    unsafeNoSandbox: z.boolean().default(false),
    /** Python command to use (default $RLLM_PYTHON or python3). */
    python: z.string().optional(),
    limits: SandboxLimitsSchema.partial().default({}),
  })
  .strict();
export type CodeGraderOptions = z.input<typeof CodeGraderOptionsSchema>;

/** One program to grade. */
export interface CodeProblem {
  program: string;
  tests: TestCase[];
  fnName?: string;
}

// Per-slot uids start here; the offset keeps two graders on one machine (two test workers) on different uids.
const slotUidBase = 200_000 + (process.pid % 4_000) * 64;

/** Grades programs in sandboxes; create it with `CodeGrader.create`, which checks the sandbox really works. */
export class CodeGrader {
  private readonly pool: SlotPool;

  private constructor(
    readonly host: SandboxHost,
    private readonly options: z.infer<typeof CodeGraderOptionsSchema>,
    private readonly limits: SandboxLimits,
    private readonly runner: LanguageRunner,
  ) {
    this.pool = new SlotPool(options.concurrency ?? os.availableParallelism());
  }

  /** Detects and probes the sandbox; throws SandboxUnavailableError when it does not work (unless unsafe mode was asked for). */
  static async create(options: CodeGraderOptions = {}, runner: LanguageRunner = pythonRunner): Promise<CodeGrader> {
    const parsed = CodeGraderOptionsSchema.parse(options);
    const host = detectSandboxHost({ unsafeNoSandbox: parsed.unsafeNoSandbox, python: parsed.python });
    const grader = new CodeGrader(host, parsed, SandboxLimitsSchema.parse(parsed.limits), runner);
    await grader.probe();
    return grader;
  }

  /** How many sandboxes run at once. */
  get concurrency(): number {
    return this.pool.size;
  }

  /** The unprivileged uids this grader's sandboxes run as (empty when the host cannot drop to slot users). */
  get sandboxUids(): number[] {
    return this.host.dropsToSlotUser ? Array.from({ length: this.pool.size }, (_, slot) => slotUidBase + slot) : [];
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
      run: (job, budget, onRecord) => this.run(job, budget, onRecord),
      runner: this.runner,
      limits: this.limits,
      timeoutMs: this.options.timeoutSeconds * 1000,
      runAllTests: this.options.runAllTests,
      floatTolerance: this.options.floatTolerance,
    };
  }

  private run(job: RunJob, budget: RunBudget, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome> {
    return this.pool.withSlot(async (slot) => {
      const scratchDirectory = this.host.kind === "unsafe" ? mkdtempSync(path.join(os.tmpdir(), "rllm-code-")) : undefined;
      try {
        const command = sandboxCommand({
          host: this.host,
          limits: this.limits,
          slotUid: slotUidBase + slot,
          cpuSeconds: budget.cpuSeconds,
          mounts: this.runner.mounts,
          argv: this.runner.argv(this.host),
          scratchDirectory,
        });
        const outcome = await runProcess({
          ...command,
          stdin: this.runner.encodeStdin(job),
          idleTimeoutMs: budget.idleTimeoutMs,
          deadlineMs: budget.deadlineMs,
          outputBytes: budget.outputBytes ?? this.limits.outputBytes,
          stderrBytes: this.limits.stderrBytes,
          onRecord,
        });
        if (outcome.spawnError) throw new SandboxUnavailableError(`cannot start ${command.file}: ${outcome.spawnError}`);
        if (/^bwrap: /m.test(outcome.stderr) && outcome.exitCode === 1) throw new SandboxUnavailableError(`bubblewrap failed: ${outcome.stderr.trim()}`);
        return outcome;
      } finally {
        if (scratchDirectory) rmSync(scratchDirectory, { recursive: true, force: true });
      }
    });
  }

  /** Runs a trivial program once so a broken sandbox fails loudly at start, not as a wall of wrong answers. */
  private async probe(): Promise<void> {
    const outcome = await this.run({ mode: "stdio", program: "print(6 * 7)", stdin: "" }, { idleTimeoutMs: 30_000, deadlineMs: 30_000, cpuSeconds: 10 });
    const verdict = classifyOutcome(outcome, this.runner.deniedExitCode, this.limits.outputBytes);
    if (verdict || outcome.stdout.toString("utf8").trim() !== "42") {
      throw new SandboxUnavailableError(`the sandbox probe failed (${verdict?.detail ?? "wrong output"}): ${outcome.stderr.trim().slice(-500)}`);
    }
  }
}
