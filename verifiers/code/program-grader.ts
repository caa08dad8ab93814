/** What the code verifier needs of a grader, local (CodeGrader, bubblewrap slots) or remote (RemoteCodeGrader, sandbox services). */
import type { ProgramVerdict } from "./test-verdict.js";
import type { TestCase } from "./normalize-tests.js";

/** One program to grade. */
export interface CodeProblem {
  program: string;
  tests: TestCase[];
  fnName?: string;
}

export interface ProgramGrader {
  /** How many problems it grades at once. */
  readonly concurrency: number;
  /** Said once per run when the isolation is weaker than documented (no cgroups), else undefined. */
  readonly notice: string | undefined;
  /** The verdict of `problem`; a grader failure is an infra_error verdict, never a pass. */
  grade(problem: CodeProblem): Promise<ProgramVerdict>;
}
