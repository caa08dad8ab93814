/**
 * Asking a Python interpreter where it lives (its executable, prefix, version and site-packages): run here, answered
 * and validated in find-python.ts. Asked without blocking, so that a run resolving its interpreter while it starts
 * (its sandbox slots, its modules) waits for it only when it needs the answer.
 */
import { spawn } from "node:child_process";

// -S skips site.py's start-up work (each .pth file of the installation, about 100 ms under load); site.venv is the
// one part of it that decides the site-packages of a virtual environment, so the answer is the same as without -S.
const probe = "import sys, json, site; site.venv(set()); print(json.dumps([sys.executable, sys.base_prefix, sys.version.split()[0], site.getsitepackages()]))";
const probeArguments = ["-I", "-S", "-c", probe];
const probeTimeoutMs = 30_000;

/** What the interpreter did when asked: its exit status and output, or why it could not run. */
export interface PythonProbeOutcome {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

/** Asks `command`; never rejects (a missing interpreter is an outcome with its error). */
export function probePython(command: string): Promise<PythonProbeOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, probeArguments, { stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), probeTimeoutMs);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr, error });
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
