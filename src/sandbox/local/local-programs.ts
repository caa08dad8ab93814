/**
 * The local provider's program slots: a fixed set of long-lived bubblewrap sandboxes (one per slot, each with its own
 * cgroups and, as root, its own uid), whose fork server runs each job in fresh forked processes under the seccomp
 * filter. Opening detects the host, starts every slot and runs a probe program on each, so a broken sandbox fails
 * loudly before the first verdict.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LocalPrograms, ProcessOutcome, ProgramJob, RunBudget } from "../../core/program-sandbox.js";
import { SandboxLimitsSchema, type SandboxLimits } from "../../core/sandbox-limits.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";
import type { PythonInstallation } from "./find-python.js";
import type { LanguageRunner } from "./language-runner.js";
import { pythonRunner } from "./python-runner.js";
import { createSandboxCgroups, type SlotCgroups } from "./sandbox-cgroup.js";
import { sandboxCommand } from "./sandbox-command.js";
import { detectSandboxHost, type SandboxHost } from "./sandbox-host.js";
import { SandboxSlot } from "./sandbox-slot.js";
import { SlotPool } from "./slot-pool.js";

/** What the slots are opened with. */
export interface LocalProgramsOptions {
  /** The interpreter programs run with (resolve-python.ts). */
  python: PythonInstallation;
  /** Run without bubblewrap (rlimits, the seccomp filter and a scratch folder only) where bubblewrap is missing. */
  unsafeNoSandbox?: boolean;
  /** Slots (default: all cores). */
  concurrency?: number;
  limits?: Partial<SandboxLimits>;
  runner?: LanguageRunner;
}

// Per-slot uids start here; the offset keeps two runs on one machine (two test workers) on different uids.
const slotUidBase = 200_000 + (process.pid % 4_000) * 64;
// Processes of the sandbox itself in its pids cgroup: bwrap, its pid-namespace init, the fork server, its template
// (which programs are forked from) and the checker.
const sandboxOwnProcesses = 5;

/** Opens the slots and probes each; SandboxUnavailableError when the sandbox does not work (unless unsafe mode was asked for). */
export async function openLocalPrograms(options: LocalProgramsOptions): Promise<LocalProgramSlots> {
  const host = detectSandboxHost({ unsafeNoSandbox: options.unsafeNoSandbox ?? false, python: options.python });
  const limits = SandboxLimitsSchema.parse(options.limits ?? {});
  const size = options.concurrency ?? os.availableParallelism();
  const cgroups = createSandboxCgroups(size, { memoryBytes: limits.memoryBytes, processes: limits.processes + sandboxOwnProcesses });
  const slots = new LocalProgramSlots(host, size, limits, options.runner ?? pythonRunner, cgroups);
  try {
    await slots.probe();
  } catch (error) {
    await slots.close();
    throw error;
  }
  return slots;
}

/** The slots; `close` them when the run ends. */
export class LocalProgramSlots implements LocalPrograms {
  readonly kind = "local";
  private readonly pool: SlotPool;
  private readonly slots: SandboxSlot[];
  private readonly scratchDirectories: string[] = [];
  /** How the whole sandbox's memory and processes are capped, in words (cgroups, or the rlimit fallback and why). */
  readonly memoryPolicy: string;
  /** False when no cgroup could be created and each process is capped on its own (RLIMIT_AS, RLIMIT_NPROC). */
  readonly capsWholeSandbox: boolean;

  constructor(
    readonly host: SandboxHost,
    size: number,
    readonly limits: SandboxLimits,
    private readonly runner: LanguageRunner,
    private readonly cgroups: SlotCgroups,
  ) {
    this.pool = new SlotPool(size);
    this.capsWholeSandbox = cgroups.slots !== undefined;
    this.memoryPolicy = cgroups.slots
      ? cgroups.policy
      : `fallback: each process capped at ${Math.round(limits.memoryBytes / 1024 ** 2)} MiB of address space (RLIMIT_AS) and the user's processes by RLIMIT_NPROC, with no cap on the sandbox as a whole (${cgroups.unavailable})`;
    this.slots = Array.from({ length: this.pool.size }, (_, slot) => this.createSlot(slot));
  }

  /** How many programs run at once. */
  get concurrency(): number {
    return this.pool.size;
  }

  /** The memory policy when it is weaker than documented (no cgroups), for the run's log. */
  get notice(): string | undefined {
    return this.capsWholeSandbox ? undefined : this.memoryPolicy;
  }

  get deniedExitCode(): number {
    return this.runner.deniedExitCode;
  }

  /** The unprivileged uids the slots run as (empty when the host cannot drop to slot users). */
  get sandboxUids(): number[] {
    return this.host.dropsToSlotUser ? Array.from({ length: this.pool.size }, (_, slot) => slotUidBase + slot) : [];
  }

  run(job: ProgramJob, budget: RunBudget, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome> {
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
        job.mode === "stdio" ? undefined : { mode: job.mode, inputs: job.inputs ?? [], asserts: job.asserts ?? [], fn_name: job.fnName ?? null, run_all: job.runAll ?? false },
        onRecord,
      ),
    );
  }

  execute(program: string, stdin: string, timeoutSeconds: number, outputBytes?: number): Promise<ProcessOutcome> {
    const timeoutMs = timeoutSeconds * 1000;
    return this.run({ mode: "stdio", program, stdin }, { idleTimeoutMs: timeoutMs, deadlineMs: timeoutMs + 1000, cpuSeconds: timeoutSeconds + 1, outputBytes });
  }

  /** Kills every slot's sandbox, waits for them to exit, and removes the cgroups and scratch folders. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.close()));
    // The sandbox's own processes leave its cgroup a moment after bubblewrap exits (usually within a few ms), so the
    // removal is retried often: with a 50 ms pause every graded run ended ~60 ms after its last verdict. Still 1 s in all.
    for (let attempt = 0; this.cgroups.slots && !this.cgroups.remove() && attempt < 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const directory of this.scratchDirectories) rmSync(directory, { recursive: true, force: true });
  }

  /**
   * Runs a trivial program on every slot at once, so a broken sandbox fails loudly at start, not as a wall of wrong
   * answers; and the slots start side by side here instead of one after another on their first problems.
   */
  async probe(): Promise<void> {
    const outcomes = await Promise.all(
      this.slots.map(() => this.run({ mode: "stdio", program: "print(6 * 7)", stdin: "" }, { idleTimeoutMs: 30_000, deadlineMs: 30_000, cpuSeconds: 10 })),
    );
    for (const outcome of outcomes) {
      const isClean = outcome.exitCode === 0 && outcome.signal === null && !outcome.timedOut && outcome.sandboxFailure === null;
      if (!isClean || outcome.stdout.toString("utf8").trim() !== "42") {
        const reason = outcome.sandboxFailure ?? (outcome.timedOut ? "timed out" : `exit ${outcome.exitCode ?? outcome.signal}`);
        throw new SandboxUnavailableError(`the sandbox probe failed (${isClean ? "wrong output" : reason}): ${outcome.stderr.trim().slice(-500)}`);
      }
    }
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
}
