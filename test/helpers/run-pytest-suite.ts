// Runs one of integrations/*'s Python suites with the pinned ml environment's interpreter, from the repository root.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pythonEnv } from "./python-env.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * pytest over `folder` (relative to the repository root) with `env` added. Async, not spawnSync: the suites start
 * servers as child processes, and this process must not block on them.
 */
export function runPytestSuite(folder: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn(pythonEnv("ml"), ["-m", "pytest", folder, "-q", "-rs", "-p", "no:cacheprovider", "-W", "ignore::FutureWarning"], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, output })));
}
