/** Runs one docker CLI command without blocking the event loop, under a time limit, and keeps its output. */
import { spawn } from "node:child_process";

/** What a docker CLI command did; `status` is null when it was killed (time limit) or could not start. */
export interface DockerCommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `docker args…`; kills the client after `timeoutMs` (a daemon that stops answering must not hang the episode). */
export function runDocker(docker: string, args: readonly string[], timeoutMs = 60_000): Promise<DockerCommandResult> {
  return new Promise((resolve) => {
    const child = spawn(docker, args, { stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const finish = (status: number | null, extra = "") => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8") + extra });
    };
    child.on("error", (error) => finish(null, String(error)));
    child.on("close", (code, signal) => finish(code, signal ? `docker ${args[0]} was killed after ${timeoutMs} ms` : ""));
  });
}

/** The result's stdout, or an Error naming the command and docker's message. */
export function dockerOutput(args: readonly string[], result: DockerCommandResult): string {
  if (result.status === 0) return result.stdout;
  throw new Error(`docker ${args[0]} failed (exit ${result.status ?? "none"}): ${(result.stderr || result.stdout).trim().slice(-2000)}`);
}
