/** One sandboxed CodeGrader per process for the cookbook's evaluator, created on first use with the default options. */
import { CodeGrader } from "../../verifiers/code/code-grader.js";

let grader: Promise<CodeGrader> | undefined;

/** The process-wide grader (all cores, 6 s per test, stop at the first failure); the sandbox is probed once. */
export function sharedCodeGrader(): Promise<CodeGrader> {
  grader ??= CodeGrader.create().catch((error: unknown) => {
    grader = undefined;
    throw error;
  });
  return grader;
}
