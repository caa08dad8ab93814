/**
 * Asking a Python interpreter where it lives (its executable, prefix, version and site-packages): run here, answered
 * and validated in find-python.ts. This module loads nothing but node:child_process, so that `rllm grade` can start
 * the question before it loads the grader's modules (zod among them, about 60 ms), and the interpreter's answer
 * (about 25 ms) arrives while they load instead of after.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";

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

// Probes under way or answered, by command, with their process: unref'd until taken, so that one nobody takes (the run
// graded on a sandbox service) never holds the CLI open, and ref'd again while a grader waits for it.
const started = new Map<string, { outcome: Promise<PythonProbeOutcome>; child: ChildProcess }>();

/** The interpreter command the code verifier uses: the one given, else $RLLM_PYTHON, else `python3` on PATH. */
export function pythonCommand(command?: string): string {
  return command ?? (process.env.RLLM_PYTHON || "python3");
}

/** Asks `command` now and waits for its answer. */
export function runPythonProbe(command: string): PythonProbeOutcome {
  const result = spawnSync(command, probeArguments, { encoding: "utf8", timeout: probeTimeoutMs });
  return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "", error: result.error };
}

/** Asks `command` in the background; `takePythonProbe` hands the answer to the grader that opens next. */
export function startPythonProbe(command: string): void {
  if (started.has(command)) return;
  const child = spawn(command, probeArguments);
  // Not spawn's own timeout option: its timer would hold the process open for an answer nobody takes.
  const timer = setTimeout(() => child.kill("SIGKILL"), probeTimeoutMs).unref();
  child.on("close", () => clearTimeout(timer));
  const outcome = new Promise<PythonProbeOutcome>((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => resolve({ status: null, stdout, stderr, error }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
  setHeld(child, false);
  started.set(command, { outcome, child });
}

/** The answer of a probe started for `command`, handed over once; undefined when none was started. */
export function takePythonProbe(command: string): Promise<PythonProbeOutcome> | undefined {
  const probe = started.get(command);
  started.delete(command);
  if (!probe) return undefined;
  setHeld(probe.child, true);
  return probe.outcome;
}

// Whether the probe's process and its pipes keep the event loop alive.
function setHeld(child: ChildProcess, held: boolean): void {
  for (const handle of [child, child.stdout, child.stderr, child.stdin] as ({ ref?: () => void; unref?: () => void } | null)[]) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}
