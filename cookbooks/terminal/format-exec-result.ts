/** The text an agent sees for one sandbox command's result. */
import type { ExecResult } from "rllm-ts/verifiers/terminal";

/** stdout, stderr, then notes: a time-out, cut output, the exit code. */
export function formatExecResult(result: ExecResult): string {
  const parts = [result.stdout, result.stderr].filter((part) => part !== "");
  const notes = [
    ...(result.timedOut ? [`[the command timed out after ${Math.round(result.durationMs / 1000)} s and was killed]`] : []),
    ...(result.truncated ? ["[output truncated]"] : []),
    `[exit code ${result.exitCode ?? "none"}]`,
  ];
  return [...parts, ...notes].join("\n");
}
