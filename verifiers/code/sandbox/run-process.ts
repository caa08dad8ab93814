/** Runs one process with stdin bytes, capped stdout/stderr, an optional record channel on fd 3, and kill-on-timeout of its whole process group. */
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";

// How long a killed run may keep its pipes open before we close them from our side.
const pipeGraceMs = 2000;

export interface ProcessRequest {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  stdin: Buffer;
  /** Without a channel: the wall-clock limit of the run. With one: the longest wait for the next record. */
  idleTimeoutMs: number;
  /** Wall-clock limit of the whole run, whatever the records say. */
  deadlineMs: number;
  outputBytes: number;
  stderrBytes: number;
  /** Open fd 3 as a line-record channel; `onRecord` may stop the run early (first failure). */
  onRecord?: (line: string) => "continue" | "stop";
}

export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: Buffer;
  /** The last `stderrBytes` of stderr. */
  stderr: string;
  timedOut: boolean;
  outputLimitExceeded: boolean;
  stoppedEarly: boolean;
  wallMs: number;
  /** The process could not be started at all. */
  spawnError?: string;
}

/** Runs `request` to completion (or until it is killed) and reports what happened. */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const started = performance.now();
  const withChannel = request.onRecord !== undefined;
  return new Promise((resolve) => {
    const child = spawn(request.file, request.args, {
      env: request.env,
      cwd: request.cwd,
      // A new process group, so a timeout kills the launcher and everything it started.
      detached: true,
      stdio: withChannel ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
    });
    const stdoutChunks: Buffer[] = [];
    let stdoutLength = 0;
    let stderr = "";
    let timedOut = false;
    let outputLimitExceeded = false;
    let stoppedEarly = false;
    let killed = false;
    let spawnError: string | undefined;

    const kill = (): void => {
      if (killed || child.pid === undefined) return;
      killed = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
      // A process that escaped the group may still hold our pipes open; stop waiting for it.
      setTimeout(() => {
        for (const stream of child.stdio) stream?.destroy();
      }, pipeGraceMs).unref();
    };
    const timeOut = () => {
      timedOut = true;
      kill();
    };
    let idleTimer = setTimeout(timeOut, request.idleTimeoutMs);
    const deadlineTimer = setTimeout(timeOut, request.deadlineMs);

    child.on("error", (error) => {
      spawnError = error.message;
    });
    child.stdin!.on("error", () => {
      // EPIPE: the program exited without reading all of its input; that is its business.
    });
    child.stdin!.end(request.stdin);

    child.stdout!.on("data", (chunk: Buffer) => {
      if (outputLimitExceeded) return;
      stdoutLength += chunk.length;
      if (stdoutLength > request.outputBytes) {
        outputLimitExceeded = true;
        kill();
        return;
      }
      stdoutChunks.push(chunk);
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      // Keep the tail: the traceback's last line and the sandbox's own messages come last.
      stderr = (stderr + chunk.toString("utf8")).slice(-request.stderrBytes);
    });
    if (withChannel) {
      readRecords(child.stdio[3] as Readable, request.outputBytes, {
        onRecord(line) {
          if (killed) return;
          clearTimeout(idleTimer);
          idleTimer = setTimeout(timeOut, request.idleTimeoutMs);
          if (request.onRecord!(line) === "stop") {
            stoppedEarly = true;
            kill();
          }
        },
        onOverflow() {
          outputLimitExceeded = true;
          kill();
        },
      });
    }

    child.on("close", (exitCode, signal) => {
      clearTimeout(idleTimer);
      clearTimeout(deadlineTimer);
      // Sandboxed children may outlive the launcher by a moment; make sure the group is gone.
      if (!killed && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone: the usual case.
        }
      }
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(stdoutChunks),
        stderr,
        timedOut,
        outputLimitExceeded,
        stoppedEarly,
        wallMs: performance.now() - started,
        spawnError,
      });
    });
  });
}

/** Splits a stream into newline-terminated records. */
function readRecords(stream: Readable, limitBytes: number, handlers: { onRecord: (line: string) => void; onOverflow: () => void }): void {
  let pending = "";
  let total = 0;
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    total += chunk.length;
    if (total > limitBytes) {
      handlers.onOverflow();
      return;
    }
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      handlers.onRecord(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  });
  stream.on("error", () => {
    // The sandbox closed its end: whatever arrived is all there is.
  });
}
