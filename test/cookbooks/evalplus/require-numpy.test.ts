import { describe, expect, it } from "vitest";
import { InfraError } from "../../../src/core/errors/infra-error.js";
import type { CodeProblem, ProgramGrader } from "../../../verifiers/code/program-grader.js";
import type { ProgramVerdict } from "../../../verifiers/code/test-verdict.js";
import { requireNumpy } from "../../../cookbooks/evalplus/require-numpy.js";

/** A run's code pool whose graders answer every problem with `verdict`, recording what they were asked. */
function recordingPool(verdict: Partial<ProgramVerdict>): { grader(): ProgramGrader; problems: CodeProblem[] } {
  const problems: CodeProblem[] = [];
  const grader: ProgramGrader = {
    concurrency: 1,
    notice: undefined,
    grade: async (problem) => {
      problems.push(problem);
      return { passed: false, verdict: "runtime_error", passedTests: 0, totalTests: 1, tests: [], ...verdict } as ProgramVerdict;
    },
  };
  return { grader: () => grader, problems };
}

describe("requireNumpy", () => {
  it("is an infrastructure error, never the candidate's fault, when the sandbox's Python cannot import numpy", async () => {
    const pool = recordingPool({ verdict: "runtime_error", detail: "test 1: runtime_error (ModuleNotFoundError: No module named 'numpy')" });
    const check = requireNumpy(pool);
    await expect(check).rejects.toBeInstanceOf(InfraError);
    await expect(check).rejects.toThrow(/EvalPlus's tests need numpy.*scripts\/python-env.sh sandbox.*--python or RLLM_PYTHON/);
    expect(pool.problems[0]!.tests).toEqual([{ kind: "assert", code: "import numpy\nassert probe() == 1\n" }]);
  });

  it("passes once the probe is accepted, and asks each run's pool only once", async () => {
    const pool = recordingPool({ verdict: "accepted", passed: true, passedTests: 1 });
    await requireNumpy(pool);
    await requireNumpy(pool);
    expect(pool.problems).toHaveLength(1);
    // Another run's pool is asked again: its sandbox may have another Python.
    const next = recordingPool({ verdict: "accepted", passed: true, passedTests: 1 });
    await requireNumpy(next);
    expect(next.problems).toHaveLength(1);
  });
});
