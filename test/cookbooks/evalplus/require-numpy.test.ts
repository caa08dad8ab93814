import { describe, expect, it } from "vitest";
import { InfraError } from "../../../src/core/errors/infra-error.js";
import type { CodeProblem, ProgramGrader } from "../../../verifiers/code/program-grader.js";
import type { ProgramVerdict } from "../../../verifiers/code/test-verdict.js";
import { requireNumpy } from "../../../cookbooks/evalplus/require-numpy.js";

/** A grader that answers every problem with `verdict` and records what it was asked. */
function recordingGrader(verdict: Partial<ProgramVerdict>): ProgramGrader & { problems: CodeProblem[] } {
  const problems: CodeProblem[] = [];
  return {
    concurrency: 1,
    notice: undefined,
    problems,
    grade: async (problem) => {
      problems.push(problem);
      return { passed: false, verdict: "runtime_error", passedTests: 0, totalTests: 1, tests: [], ...verdict } as ProgramVerdict;
    },
    close: async () => {},
  };
}

describe("requireNumpy", () => {
  it("is an infrastructure error, never the candidate's fault, when the sandbox's Python cannot import numpy", async () => {
    const grader = recordingGrader({ verdict: "runtime_error", detail: "test 1: runtime_error (ModuleNotFoundError: No module named 'numpy')" });
    const check = requireNumpy(grader);
    await expect(check).rejects.toBeInstanceOf(InfraError);
    await expect(check).rejects.toThrow(/EvalPlus's tests need numpy.*install numpy for that Python, or point RLLM_PYTHON at one that has it/);
    expect(grader.problems[0]!.tests).toEqual([{ kind: "assert", code: "import numpy\nassert probe() == 1\n" }]);
  });

  it("passes once the probe is accepted, and asks the grader only once", async () => {
    const grader = recordingGrader({ verdict: "accepted", passed: true, passedTests: 1 });
    await requireNumpy(grader);
    await requireNumpy(grader);
    expect(grader.problems).toHaveLength(1);
  });
});
