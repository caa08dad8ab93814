/** Runs the real `rllm` binary in a child process, as a user would. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const binPath = fileURLToPath(new URL("../../bin/rllm.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `rllm ...args` and returns the child, for tests that interrupt it. */
export function spawnCli(args: string[], environment: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [binPath, ...args], { env: { ...process.env, ...environment }, stdio: ["ignore", "pipe", "pipe"] });
}

/** Runs `rllm ...args` to the end. */
export function runCli(args: string[], environment: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawnCli(args, environment);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}
