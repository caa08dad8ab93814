/**
 * The host's end of an episode sandbox's supervisor (`supervisor-program.ts`): starts the bubblewrap that runs it, sends
 * one JSON line per command, matches the replies, and turns the supervisor's death (killed, out of memory, frozen) into
 * a clear error for every waiting command instead of a hang.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { z } from "zod";
import { collectOutput } from "./collect-output.js";
import type { ExecResult } from "../../core/sandbox-environment.js";

/** One command for the supervisor, run as `<shell> -c <command>`. */
export interface SupervisorCommand {
  command: string;
  shell: string;
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
  outputBytes: number;
}

/** A running supervisor: its commands, and its end. */
export interface SupervisorConnection {
  exec(command: SupervisorCommand, signal?: AbortSignal): Promise<ExecResult>;
  /** Kills the sandbox's pid namespace (every process in it); waiting commands resolve as killed. */
  stop(): Promise<void>;
  /** Why the supervisor died on its own, or undefined while it lives (or after `stop`). */
  deathReason(): string | undefined;
}

// The agent runs as the supervisor's uid and could write to its stdout through /proc: every reply is checked, and a
// forged one can only mislead the agent about its own commands.
const ReplySchema = z.object({
  id: z.number().int(),
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
});

/** The reply on one line of the supervisor's stdout, or undefined when it holds none. */
function parseReply(line: string): z.infer<typeof ReplySchema> | undefined {
  try {
    const parsed = ReplySchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

// A supervisor that has not answered this long after a command's own timeout is frozen (SIGSTOP) or starved.
const replyGraceMs = 10_000;

/**
 * Starts `file args` (sh → bwrap → node supervisor) in its own process group; bwrap's `--info-fd 3` must be among the
 * arguments. `describeDeath` adds the cgroup's view (OOM kills).
 */
export function startSupervisor(file: string, args: string[], env: Record<string, string>, describeDeath: () => string): SupervisorConnection {
  const child = spawn(file, args, { env, stdio: ["pipe", "pipe", "pipe", "pipe"], detached: true });
  // The host pid of the namespace's init, from bwrap's --info-fd. Killing it, not bwrap, ends the namespace in order:
  // init's exit waits until the kernel has killed and reaped every process in it, so bwrap exits only once none is left.
  let initPid: number | undefined;
  const info = collectOutput(child.stdio[3] as Readable, 4096);
  (child.stdio[3] as Readable).on("end", () => {
    initPid = Number(/"child-pid":\s*(\d+)/.exec(info.text())?.[1]) || undefined;
  });
  const stderr = collectOutput(child.stderr!, 4096);
  const pending = new Map<number, { resolve(result: ExecResult): void; reject(error: Error): void; started: number; timer: NodeJS.Timeout }>();
  let nextId = 0;
  let isStopping = false;
  let death: string | undefined;
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  child.stdin!.on("error", () => {}); // writing to a dead supervisor: its close event reports the death
  const killGroup = () => {
    try {
      if (initPid !== undefined) process.kill(initPid, "SIGKILL");
      else process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const failAll = (reason: string) => {
    if (isStopping || death !== undefined) return;
    death = reason;
    for (const [id, waiting] of pending) {
      clearTimeout(waiting.timer);
      pending.delete(id);
      waiting.reject(new Error(`the sandbox's supervisor died: ${reason}; every process of the episode is gone`));
    }
    killGroup();
  };
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const reply = parseReply(line);
    if (reply === undefined) {
      failAll(`it wrote a line that is not a reply: ${line.slice(0, 200)}`);
      return;
    }
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending.delete(reply.id);
    const { id: _id, ...result } = reply;
    waiting.resolve({ ...result, durationMs: performance.now() - waiting.started });
  });
  child.on("error", (error) => failAll(`cannot start bubblewrap: ${error.message}`));
  child.on("close", (code, signal) => {
    if (isStopping) {
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        pending.delete(id);
        waiting.resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, truncated: false, durationMs: performance.now() - waiting.started });
      }
      return;
    }
    const said = stderr.text().trim();
    failAll(`it exited (${signal ?? `code ${code}`})${describeDeath()}${said ? `: ${said.slice(-500)}` : ""}`);
  });

  return {
    exec(command, signal) {
      if (death !== undefined) return Promise.reject(new Error(`the sandbox's supervisor died: ${death}`));
      const id = nextId++;
      const started = performance.now();
      return new Promise<ExecResult>((resolve, reject) => {
        const timer = setTimeout(() => failAll(`it did not answer within ${command.timeoutMs + replyGraceMs} ms (frozen or starved)`), command.timeoutMs + replyGraceMs);
        const onAbort = () => child.stdin!.write(`${JSON.stringify({ type: "kill", id })}\n`);
        signal?.addEventListener("abort", onAbort, { once: true });
        const done = () => signal?.removeEventListener("abort", onAbort);
        pending.set(id, {
          resolve(result) {
            done();
            resolve(result);
          },
          reject(error) {
            done();
            reject(error);
          },
          started,
          timer,
        });
        child.stdin!.write(`${JSON.stringify({ type: "exec", id, ...command })}\n`);
      });
    },
    async stop() {
      isStopping = death === undefined;
      killGroup();
      await closed;
    },
    deathReason: () => death,
  };
}
