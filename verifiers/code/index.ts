/** The code verifier: untrusted programs graded in the run's sandbox against stdin/stdout, function-call and assert tests. */
// The run's pool of program slots (local) or hosts (remote), and the graders made on it
export { codePool, codeGradingPool } from "./code-pool.js";
export { CodeGradingPool } from "./code-grading-pool.js";
export { CodeGrader, CodeGraderOptionsSchema, CodeGradingOptionsSchema, type CodeGraderOptions, type CodeGradingOptions } from "./code-grader.js";
export type { CodeProblem, ProgramGrader } from "./program-grader.js";
// Grading on SandboxFusion-compatible services (--sandbox URL)
export { RemoteCodeGrader, type RemoteCodeGraderOptions } from "./remote/remote-code-grader.js";
export { codeGradeVerifier, CodeRowSchema, type CodeRow } from "./code-grade-verifier.js";
export { ProgramVerdictSchema, TestResultSchema, TestVerdictKindSchema, type ProgramVerdict, type TestResult, type TestVerdictKind } from "./test-verdict.js";
// Tests and comparison
export { normalizeTests, TestCaseSchema, TestDecodeError, type TestCase, type NormalizedTests } from "./normalize-tests.js";
export { compareStdout } from "./compare-stdout.js";
export { parsePythonJson, pythonEquals, type PythonValue } from "./python-value.js";
export { extractProgram, extractLastCodeBlock } from "./extract-code.js";
