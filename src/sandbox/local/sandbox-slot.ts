/**
 * One sandbox slot: a long-lived sandbox whose fork server (python/zygote.py) runs one job at a time in fresh forked
 * processes. The slot starts on first use, restarts after it dies (timeout backstop, memory cap), and is killed by `close`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import type { ProcessOutcome } from "../../core/program-sandbox.js";
import type { SlotCgroup } from "./sandbox-cgroup.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";

/** How to start the slot's sandbox. */
export interface SlotCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** The program's half of a job, sent to the fork server (the checker's half goes on its own channel). */
export interface SlotJob {
  mode: "stdio" | "functional" | "assert";
  program: string;
  stdin?: string;
  idleMs: number;
  deadlineMs: number;
  cpuSeconds: number;
  outputBytes: number;
  stderrBytes: number;
}

const ReadySchema = z.object({ type: z.literal("ready"), python: z.string(), error: z.string().nullable() });
const RecordSchema = z.object({ type: z.literal("record"), line: z.string() });
const DoneSchema = z.object({
  type: z.literal("done"),
  exit_code: z.number().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  output_exceeded: z.boolean(),
  stopped: z.boolean(),
  wall_ms: z.number(),
  stderr: z.string(),
  checker_stderr: z.string(),
  stdout_bytes: z.number().int().nonnegative(),
});
const MessageSchema = z.discriminatedUnion("type", [ReadySchema, RecordSchema, DoneSchema]);
type Message = z.infer<typeof MessageSchema>;

// The fork server enforces the job's limits itself; this backstop only fires when the whole sandbox stops answering.
const backstopSlackMs = 5000;
const startTimeoutMs = 30_000;

/** A sandbox with its fork server, started lazily. */
export class SandboxSlot {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private pendingDone: z.infer<typeof DoneSchema> | undefined;
  private listener: ((message: Message, payload?: Buffer) => void) | undefined;
  private exitListener: ((reason: string) => void) | undefined;
  private faultListener: ((error: Error) => void) | undefined;
  private stderrTail = "";
  private nextJobId = 0;

  constructor(
    private readonly command: SlotCommand,
    private readonly cgroup: SlotCgroup | undefined,
  ) {}

  /** Runs one job; `checkerPart` goes to the trusted checker; `onRecord` sees each checker record and may stop the job. */
  async run(job: SlotJob, checkerPart: Record<string, unknown> | undefined, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome> {
    await this.start();
    const child = this.child!;
    this.nextJobId += 1;
    const id = this.nextJobId;
    const oomBefore = this.cgroup?.oomKills() ?? 0;
    return new Promise<ProcessOutcome>((resolve, reject) => {
      let stopped = false;
      const settle = (outcome: Omit<ProcessOutcome, "memoryCapHit">): void => {
        clearTimeout(backstop);
        this.listener = undefined;
        this.exitListener = undefined;
        this.faultListener = undefined;
        const memoryCapHit = (this.cgroup?.oomKills() ?? 0) > oomBefore;
        resolve({ ...outcome, memoryCapHit });
      };
      const backstop = setTimeout(() => {
        this.kill();
        settle(failedOutcome("the sandbox stopped answering", true, job.deadlineMs + backstopSlackMs));
      }, job.deadlineMs + backstopSlackMs);
      this.exitListener = (reason) => settle(failedOutcome(reason, false, 0));
      this.faultListener = (error) => {
        clearTimeout(backstop);
        reject(error);
      };
      this.listener = (message, payload) => {
        if (message.type === "record") {
          if (!stopped && onRecord?.(message.line) === "stop") {
            stopped = true;
            (child.stdin as Writable).write(JSON.stringify({ stop: true }) + "\n");
          }
          return;
        }
        if (message.type !== "done") return;
        settle({
          exitCode: message.exit_code,
          signal: message.signal,
          stdout: payload ?? Buffer.alloc(0),
          stderr: message.stderr,
          timedOut: message.timed_out,
          outputLimitExceeded: message.output_exceeded,
          stoppedEarly: message.stopped,
          wallMs: message.wall_ms,
          checkerStderr: message.checker_stderr,
          sandboxFailure: null,
        });
      };
      const fields = { id, mode: job.mode, program: job.program, stdin: job.stdin ?? "", idle_ms: job.idleMs, deadline_ms: job.deadlineMs, cpu_seconds: Math.max(1, Math.ceil(job.cpuSeconds)), output_bytes: job.outputBytes, stderr_bytes: job.stderrBytes };
      (child.stdin as Writable).write(JSON.stringify(fields) + "\n");
      if (checkerPart) {
        const part = Buffer.from(JSON.stringify({ id, ...checkerPart }), "utf8");
        (child.stdio[3] as Writable).write(Buffer.concat([Buffer.from(`${part.length}\n`), part]));
      }
    });
  }

  /** Kills the sandbox (every process in it) and resolves once it has exited (at most 2 s); a later run starts a fresh one. */
  close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    // Held (ref'd) until the exit arrives: a caller awaiting close must not see its event loop run empty.
    child.ref();
    const exited = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.kill();
    return exited;
  }

  private start(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      const child = spawn(this.command.file, this.command.args, {
        env: { ...this.command.env, RLLM_CGROUP_PROCS: this.cgroup?.procsFiles.join(" ") ?? "" },
        cwd: this.command.cwd,
        detached: true,
        stdio: ["pipe", "pipe", "pipe", "pipe"],
      });
      this.child = child;
      this.keep(Buffer.alloc(0));
      this.pendingDone = undefined;
      this.stderrTail = "";
      // An idle slot must not keep the grader's process alive; a running job holds its own timer.
      child.unref();
      for (const stream of child.stdio) (stream as (Readable & { unref?: () => void }) | null)?.unref?.();
      const startTimer = setTimeout(() => {
        this.kill();
        reject(new SandboxUnavailableError(`the sandbox did not start within ${startTimeoutMs / 1000} s: ${this.stderrTail.trim().slice(-500)}`));
      }, startTimeoutMs);
      this.listener = (message) => {
        if (message.type !== "ready") return;
        clearTimeout(startTimer);
        this.listener = undefined;
        if (message.error) {
          this.kill();
          reject(new SandboxUnavailableError(`the seccomp filter cannot be installed: ${message.error}`, "The code verifier runs programs only under its seccomp filter (Linux on x86-64 or aarch64); there is no unfiltered mode"));
        } else resolve();
      };
      this.exitListener = (reason) => {
        clearTimeout(startTimer);
        reject(new SandboxUnavailableError(`the sandbox failed to start: ${reason}`));
      };
      // A sandbox given up on (a protocol fault) may still speak or exit after its replacement started: only the current one counts.
      child.on("error", (error) => this.child === child && this.died(`cannot start ${this.command.file}: ${error.message}`));
      child.on("exit", (code, signal) => this.child === child && this.died(`the sandbox exited (${signal ?? `exit code ${code}`})`));
      child.stdout!.on("data", (chunk: Buffer) => this.child === child && this.receive(chunk));
      child.stderr!.on("data", (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-8192);
      });
      // A dead sandbox resets its pipes; its exit handler reports that.
      for (const stream of [child.stdin, child.stdio[3]]) (stream as Writable).on("error", () => this.kill());
    });
    return this.ready;
  }

  private died(reason: string): void {
    this.child = undefined;
    this.ready = undefined;
    const listener = this.exitListener;
    this.exitListener = undefined;
    this.listener = undefined;
    this.faultListener = undefined;
    listener?.(`${reason}${this.stderrTail.trim() ? `: ${this.stderrTail.trim().slice(-300)}` : ""}`);
  }

  private kill(): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** Splits the fork server's output into JSON lines; a done message is followed by its stdout bytes (gathered without re-copying). */
  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      const done = this.pendingDone;
      if (done) {
        if (this.buffered < done.stdout_bytes) return;
        const all = this.take();
        this.keep(all.subarray(done.stdout_bytes));
        this.pendingDone = undefined;
        this.listener?.(done, Buffer.from(all.subarray(0, done.stdout_bytes)));
        continue;
      }
      const all = this.take();
      const newline = all.indexOf(10);
      this.keep(newline === -1 ? all : all.subarray(newline + 1));
      if (newline === -1) return;
      const message = parseMessage(all.subarray(0, newline).toString("utf8"));
      if (typeof message === "string") {
        this.fault(message);
        return;
      }
      if (message.type === "done") this.pendingDone = message;
      else this.listener?.(message);
    }
  }

  /**
   * The fork server broke its protocol. Only trusted code writes that channel (a program's descriptors are closed
   * before it loads), so no program can have caused it: the job ends as the infrastructure's failure, and the sandbox
   * is killed so that the next job starts a fresh one.
   */
  private fault(reason: string): void {
    const listener = this.faultListener;
    this.listener = undefined;
    this.exitListener = undefined;
    this.faultListener = undefined;
    this.keep(Buffer.alloc(0));
    this.pendingDone = undefined;
    this.kill();
    this.child = undefined;
    this.ready = undefined;
    listener?.(new Error(`the code sandbox's fork server ${reason}`));
  }

  private take(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
  }
}

/** A message from the fork server, or why its line is not one. */
function parseMessage(line: string): Message | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `sent a line that is not JSON: ${line.slice(0, 200)}`;
  }
  const parsed = MessageSchema.safeParse(value);
  return parsed.success ? parsed.data : `sent a malformed message (${parsed.error.issues[0]?.message ?? "invalid"}): ${line.slice(0, 200)}`;
}

function failedOutcome(reason: string, timedOut: boolean, wallMs: number): Omit<ProcessOutcome, "memoryCapHit"> {
  return { exitCode: null, signal: "SIGKILL", stdout: Buffer.alloc(0), stderr: reason, timedOut, outputLimitExceeded: false, stoppedEarly: false, wallMs, checkerStderr: "", sandboxFailure: reason };
}
