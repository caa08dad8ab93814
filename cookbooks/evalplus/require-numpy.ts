/**
 * EvalPlus's test code imports numpy (its assertion compares floats with numpy's allclose). Without numpy in the
 * sandbox's Python every program would fail on the test's import: that is the host's fault, so it is checked once by
 * grading a known-good program with a test that only imports numpy, and a missing numpy is an infrastructure error.
 */
import { InfraError } from "rllm-ts/core";
import type { CodeGradingPool } from "rllm-ts/verifiers/code";

/** What the check needs of the run's code pool: a grader on it. */
export type GradingPool = Pick<CodeGradingPool, "grader">;

// The answer for each run's pool, asked once per run; it goes with the pool when the run closes it.
const checks = new WeakMap<GradingPool, Promise<void>>();

/** Resolves when the Python of the run's sandbox imports numpy; rejects with an InfraError saying how to fix it otherwise. */
export function requireNumpy(pool: GradingPool): Promise<void> {
  const known = checks.get(pool);
  if (known) return known;
  const checked = pool
    .grader()
    .grade({ program: "def probe():\n    return 1\n", tests: [{ kind: "assert", code: "import numpy\nassert probe() == 1\n" }] })
    .then((verdict) => {
      if (verdict.verdict === "infra_error") throw new InfraError(`numpy check: ${verdict.detail ?? "sandbox failure"}`);
      if (!verdict.passed) {
        throw new InfraError(
          `EvalPlus's tests need numpy, and the sandbox's Python cannot import it (${verdict.detail ?? verdict.verdict}): ` +
            "build the pinned sandbox environment (scripts/python-env.sh sandbox), or point --python or RLLM_PYTHON at a Python that has numpy",
        );
      }
    })
    .catch((error: unknown) => {
      // A failed check is asked again by the next task: the failure may have been the sandbox's passing trouble.
      checks.delete(pool);
      throw error;
    });
  checks.set(pool, checked);
  return checked;
}
