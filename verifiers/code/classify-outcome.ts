/** Reads a finished process (exit status, signal, stderr) as a test verdict: time limit, memory limit, runtime error. */
import type { ProcessOutcome } from "rllm-ts/core";
import type { TestVerdictKind } from "./test-verdict.js";

export interface OutcomeVerdict {
  verdict: TestVerdictKind;
  detail?: string;
}

// Signals that mean the CPU limit was hit (soft limit SIGXCPU, then the kernel's SIGKILL at the hard limit).
const cpuLimitSignals = new Set(["SIGXCPU"]);

/** The seccomp filter kills a process that makes a denied system call with SIGSYS. */
export const seccompDenial = "denied by sandbox policy: seccomp filter (a system call that starts a process or reaches outside the program)";

/** A process failure, or undefined for a clean exit (status 0) whose output still has to be compared. */
export function classifyOutcome(outcome: ProcessOutcome, deniedExitCode: number, outputBytes: number): OutcomeVerdict | undefined {
  if (outcome.memoryCapHit) return { verdict: "memory_limit", detail: "memory policy: the sandbox reached its memory cap (cgroup) and was killed" };
  if (outcome.outputLimitExceeded) return { verdict: "wrong_answer", detail: `output exceeded ${outputBytes} bytes` };
  if (outcome.timedOut) return { verdict: "time_limit", detail: `no result after ${Math.round(outcome.wallMs)} ms` };
  if (outcome.signal !== null) {
    if (cpuLimitSignals.has(outcome.signal)) return { verdict: "time_limit", detail: "CPU time limit" };
    if (outcome.signal === "SIGSYS") return { verdict: "runtime_error", detail: seccompDenial };
    return { verdict: "runtime_error", detail: `killed by ${outcome.signal}` };
  }
  if (outcome.exitCode === 0) return undefined;
  return failureFromStderr(outcome.stderr, outcome.exitCode, deniedExitCode);
}

/** A runtime failure from the program's stderr and exit code (MemoryError → memory limit). */
export function failureFromStderr(stderr: string, exitCode: number | null, deniedExitCode: number): OutcomeVerdict {
  const denied = /rllm-sandbox: denied (\S+)/.exec(stderr);
  if (exitCode === deniedExitCode && denied) return { verdict: "runtime_error", detail: `denied by sandbox policy: ${denied[1]}` };
  if (/^MemoryError\b/m.test(stderr)) return { verdict: "memory_limit", detail: "memory policy: MemoryError (address-space limit)" };
  return { verdict: "runtime_error", detail: `exit code ${exitCode}${lastLine(stderr)}` };
}

/** A failure reported by the launcher for one call ("TypeName: message"). */
export function failureFromError(error: string): OutcomeVerdict {
  if (error.startsWith("MemoryError")) return { verdict: "memory_limit", detail: "memory policy: MemoryError (address-space limit)" };
  if (error.startsWith("AssertionError")) return { verdict: "wrong_answer", detail: error };
  return { verdict: "runtime_error", detail: error };
}

function lastLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  const line = lines[lines.length - 1]?.trim() ?? "";
  return line === "" ? "" : `: ${line.slice(0, 200)}`;
}
