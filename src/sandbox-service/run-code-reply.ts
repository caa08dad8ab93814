/** A finished sandboxed run as SandboxFusion's RunCodeResponse, so verl's and tinker-cookbook's rewards read it unchanged. */
import { constants } from "node:os";
import type { ProcessOutcome } from "../core/program-sandbox.js";
import { outputExceededNote, type RunCodeResponse } from "../core/sandbox-fusion-protocol.js";

/**
 * SandboxFusion's mapping: a time limit or a non-zero exit is Failed, a clean exit Success. A signal becomes the
 * shell's 128 + its number; the memory cap and the output cap add a line to stderr that names them.
 */
export function runCodeReply(outcome: ProcessOutcome): RunCodeResponse {
  const isTimeLimit = outcome.timedOut || outcome.signal === "SIGXCPU";
  const notes = [
    outcome.memoryCapHit ? "MemoryError: the sandbox reached its memory cap" : undefined,
    outcome.outputLimitExceeded ? outputExceededNote : undefined,
  ].filter((note): note is string => note !== undefined);
  const signalCode = outcome.signal ? 128 + (constants.signals[outcome.signal as keyof typeof constants.signals] ?? 0) : undefined;
  const returnCode = outcome.outputLimitExceeded && outcome.exitCode === 0 ? 1 : (outcome.exitCode ?? signalCode ?? -1);
  const stderr = [outcome.stderr.trimEnd(), ...notes].filter((line) => line !== "").join("\n");
  const isSuccess = !isTimeLimit && returnCode === 0;
  return {
    status: isSuccess ? "Success" : "Failed",
    message: isTimeLimit ? "time limit exceeded" : isSuccess ? "" : `exit code ${returnCode}`,
    compile_result: null,
    run_result: {
      status: isTimeLimit ? "TimeLimitExceeded" : "Finished",
      execution_time: outcome.wallMs / 1000,
      return_code: returnCode,
      stdout: outcome.stdout.toString("utf8"),
      stderr,
    },
    executor_pod_name: null,
    files: {},
  };
}
