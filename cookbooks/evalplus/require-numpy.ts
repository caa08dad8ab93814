/**
 * EvalPlus's test code imports numpy (its assertion compares floats with numpy's allclose). Without numpy in the
 * sandbox's Python every program would fail on the test's import: that is the host's fault, so it is checked once by
 * grading a known-good program with a test that only imports numpy, and a missing numpy is an infrastructure error.
 */
import { InfraError } from "rllm-ts/core";
import type { ProgramGrader } from "rllm-ts/verifiers/code";

let checked: Promise<void> | undefined;

/** Resolves when the grader's Python imports numpy; rejects with an InfraError saying how to fix it otherwise. */
export function requireNumpy(grader: ProgramGrader): Promise<void> {
  checked ??= grader
    .grade({ program: "def probe():\n    return 1\n", tests: [{ kind: "assert", code: "import numpy\nassert probe() == 1\n" }] })
    .then((verdict) => {
      if (verdict.verdict === "infra_error") throw new InfraError(`numpy check: ${verdict.detail ?? "sandbox failure"}`);
      if (!verdict.passed) {
        throw new InfraError(
          `EvalPlus's tests need numpy, and the sandbox's Python cannot import it (${verdict.detail ?? verdict.verdict}): ` +
            "install numpy for that Python, or point RLLM_PYTHON at one that has it",
        );
      }
    })
    .catch((error: unknown) => {
      checked = undefined;
      throw error;
    });
  return checked;
}
