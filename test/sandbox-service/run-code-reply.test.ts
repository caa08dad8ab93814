import { describe, expect, it } from "vitest";
import { runCodeReply } from "../../src/sandbox-service/run-code-reply.js";
import { outputExceededNote } from "../../src/core/sandbox-fusion-protocol.js";
import type { ProcessOutcome } from "../../src/core/program-sandbox.js";

const clean: ProcessOutcome = {
  exitCode: 0,
  signal: null,
  stdout: Buffer.from("42\n"),
  stderr: "",
  timedOut: false,
  outputLimitExceeded: false,
  stoppedEarly: false,
  memoryCapHit: false,
  wallMs: 1500,
  checkerStderr: "",
  sandboxFailure: null,
};

describe("runCodeReply (SandboxFusion's RunCodeResponse of a run)", () => {
  it("is Success with the output for a clean exit", () => {
    expect(runCodeReply(clean)).toMatchObject({ status: "Success", run_result: { status: "Finished", return_code: 0, stdout: "42\n", execution_time: 1.5 } });
  });

  it("is Failed with TimeLimitExceeded for a time-out or the CPU limit", () => {
    expect(runCodeReply({ ...clean, timedOut: true, exitCode: null, signal: "SIGKILL" })).toMatchObject({ status: "Failed", run_result: { status: "TimeLimitExceeded" } });
    expect(runCodeReply({ ...clean, exitCode: null, signal: "SIGXCPU" })).toMatchObject({ status: "Failed", run_result: { status: "TimeLimitExceeded" } });
  });

  it("gives a signal the shell's 128 + number and keeps a non-zero exit", () => {
    expect(runCodeReply({ ...clean, exitCode: null, signal: "SIGSYS" }).run_result?.return_code).toBe(128 + 31);
    expect(runCodeReply({ ...clean, exitCode: 3, stderr: "Traceback\nValueError: x\n" })).toMatchObject({ status: "Failed", run_result: { return_code: 3, stderr: "Traceback\nValueError: x" } });
  });

  it("names the memory cap and the output cap in stderr, and an over-long output is never a Success", () => {
    expect(runCodeReply({ ...clean, exitCode: null, signal: "SIGKILL", memoryCapHit: true }).run_result?.stderr).toMatch(/^MemoryError/m);
    const flooded = runCodeReply({ ...clean, outputLimitExceeded: true });
    expect(flooded.status).toBe("Failed");
    expect(flooded.run_result?.stderr).toContain(outputExceededNote);
  });
});
