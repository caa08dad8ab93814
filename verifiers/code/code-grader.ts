/** The code grader: runs one program against its tests in sandbox slots (a fresh forked run per job) and returns per-test verdicts (reward 1 only if all pass). */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { classifyOutcome } from "./classify-outcome.js";
import {
  createSlotCgroups,
  detectSandboxHost,
  pythonCommand,
  pythonRunner,
  SandboxLimitsSchema,
  SandboxSlot,
  SandboxUnavailableError,
  sandboxCommand,
  SlotPool,
  takePythonProbe,
  type LanguageRunner,
  type ProcessOutcome,
  type RunJob,
  type SandboxHost,
  type SandboxLimits,
  type SlotCgroups,
} from "rllm-ts/sandbox";
import type { CodeProblem, ProgramGrader } from "./program-grader.js";
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


// Per-slot uids start here; the offset keeps two graders on one machine (two test workers) on different uids.
const slotUidBase = 200_000 + (process.pid % 4_000) * 64;
// Processes of the sandbox itself in its pids cgroup: bwrap, its pid-namespace init, the fork server, its template
// (which programs are forked from) and the checker.
const sandboxOwnProcesses = 5;

/** Grades programs in sandboxes; create it with `CodeGrader.create`, which checks the sandbox really works, and `close` it when done. */
export class CodeGrader implements ProgramGrader {
  private readonly pool: SlotPool;
  private readonly slots: SandboxSlot[];
  private readonly scratchDirectories: string[] = [];
  /** How the whole sandbox's memory and processes are capped, in words (cgroups, or the rlimit fallback and why). */
  readonly memoryPolicy: string;
  /** False when no cgroup could be created and each process is capped on its own (RLIMIT_AS, RLIMIT_NPROC). */
  readonly capsWholeSandbox: boolean;

  private constructor(
    readonly host: SandboxHost,
    private readonly options: z.infer<typeof CodeGraderOptionsSchema>,
    /** The limits each sandbox runs under. */
    readonly limits: SandboxLimits,
    private readonly runner: LanguageRunner,
    private readonly cgroups: SlotCgroups,
  ) {
    this.pool = new SlotPool(options.concurrency ?? os.availableParallelism());
    this.capsWholeSandbox = cgroups.slots !== undefined;
    this.memoryPolicy = cgroups.slots
      ? cgroups.policy
      : `fallback: each process capped at ${Math.round(limits.memoryBytes / 1024 ** 2)} MiB of address space (RLIMIT_AS) and the user's processes by RLIMIT_NPROC, with no cap on the sandbox as a whole (${cgroups.unavailable})`;
    this.slots = Array.from({ length: this.pool.size }, (_, slot) => this.createSlot(slot));
  }

  /** Detects and probes the sandbox; throws SandboxUnavailableError when it does not work (unless unsafe mode was asked for). */
  static async create(options: CodeGraderOptions = {}, runner: LanguageRunner = pythonRunner): Promise<CodeGrader> {
    const parsed = CodeGraderOptionsSchema.parse(options);
    const python = pythonCommand(parsed.python);
    // The interpreter's answer, when `rllm grade` asked while it started (python-probe.ts).
    const pythonAnswer = await takePythonProbe(python);
    const host = detectSandboxHost({ unsafeNoSandbox: parsed.unsafeNoSandbox, python, pythonAnswer });
    const limits = SandboxLimitsSchema.parse(parsed.limits);
    const size = parsed.concurrency ?? os.availableParallelism();
    const cgroups = createSlotCgroups(size, limits.memoryBytes, limits.processes + sandboxOwnProcesses);
    const grader = new CodeGrader(host, parsed, limits, runner, cgroups);
    try {
      await grader.probe();
    } catch (error) {
      await grader.close();
      throw error;
    }
    return grader;
  }

  /** Kills every sandbox of this grader, waits for them to exit, and removes its cgroups and scratch directories. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.close()));
    // The sandbox's own processes leave its cgroup a moment after bubblewrap exits (usually within a few ms), so the
    // removal is retried often: with a 50 ms pause every graded run ended ~60 ms after its last verdict. Still 1 s in all.
    for (let attempt = 0; this.cgroups.slots && !this.cgroups.remove() && attempt < 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const directory of this.scratchDirectories) rmSync(directory, { recursive: true, force: true });
  }

  /** The memory policy when it is weaker than documented (no cgroups), for the run's log. */
  get notice(): string | undefined {
    return this.capsWholeSandbox ? undefined : this.memoryPolicy;
  }

  /** The exit code a program uses when the policy denied it something (starting a process). */
  get deniedExitCode(): number {
    return this.runner.deniedExitCode;
  }

  /** Runs `program` once on `stdin` with a wall-clock limit, as `rllm sandbox serve` does for a run_code request. */
  execute(program: string, stdin: string, timeoutSeconds: number, outputBytes?: number): Promise<ProcessOutcome> {
    const timeoutMs = timeoutSeconds * 1000;
    return this.run({ mode: "stdio", program, stdin }, { idleTimeoutMs: timeoutMs, deadlineMs: timeoutMs + 1000, cpuSeconds: timeoutSeconds + 1, outputBytes });
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

  private createSlot(slot: number): SandboxSlot {
    const scratchDirectory = this.host.kind === "unsafe" ? mkdtempSync(path.join(os.tmpdir(), "rllm-code-")) : undefined;
    if (scratchDirectory) this.scratchDirectories.push(scratchDirectory);
    // Without a pids cgroup, RLIMIT_NPROC counts every process of the user: with root's slot uids that is one sandbox,
    // otherwise leave room for the processes the user already runs.
    const processes = this.capsWholeSandbox ? null : this.host.dropsToSlotUser ? this.limits.processes : this.host.existingProcesses + 256 + this.limits.processes;
    const config = { scratch: scratchDirectory ?? "/tmp", memoryBytes: this.limits.memoryBytes, fileBytes: this.limits.fileBytes, openFiles: this.limits.openFiles, processes, slot };
    const command = sandboxCommand({
      host: this.host,
      limits: this.limits,
      slotUid: slotUidBase + slot,
      mounts: this.runner.mounts,
      argv: this.runner.argv(this.host, config),
      scratchDirectory,
    });
    return new SandboxSlot(command, this.cgroups.slots?.[slot]);
  }

  private run(job: RunJob, budget: RunBudget, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome> {
    return this.pool.withSlot((slot) =>
      this.slots[slot]!.run(
        {
          mode: job.mode,
          program: job.program,
          stdin: job.stdin,
          idleMs: budget.idleTimeoutMs,
          deadlineMs: budget.deadlineMs,
          cpuSeconds: budget.cpuSeconds,
          outputBytes: budget.outputBytes ?? this.limits.outputBytes,
          stderrBytes: this.limits.stderrBytes,
        },
        job.mode === "stdio" ? undefined : { mode: job.mode, inputs: job.inputs ?? [], asserts: job.asserts ?? [], fn_name: job.fnName ?? null, run_all: this.options.runAllTests },
        onRecord,
      ),
    );
  }

  /**
   * Runs a trivial program on every slot at once, so a broken sandbox fails loudly at start, not as a wall of wrong
   * answers; and the slots start side by side here instead of one after another on their first problems.
   */
  private async probe(): Promise<void> {
    const outcomes = await Promise.all(
      this.slots.map(() => this.run({ mode: "stdio", program: "print(6 * 7)", stdin: "" }, { idleTimeoutMs: 30_000, deadlineMs: 30_000, cpuSeconds: 10 })),
    );
    for (const outcome of outcomes) {
      const verdict = classifyOutcome(outcome, this.runner.deniedExitCode, this.limits.outputBytes);
      if (verdict || outcome.stdout.toString("utf8").trim() !== "42") {
        throw new SandboxUnavailableError(`the sandbox probe failed (${verdict?.detail ?? "wrong output"}): ${outcome.stderr.trim().slice(-500)}`);
      }
    }
  }
}
