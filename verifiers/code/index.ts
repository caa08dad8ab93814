/** The code verifier: sandboxed execution of untrusted programs against stdin/stdout, function-call and assert tests. */
// Grading programs
export { CodeGrader, CodeGraderOptionsSchema, type CodeGraderOptions } from "./code-grader.js";
export type { CodeProblem, ProgramGrader } from "./program-grader.js";
// The grader a run's options ask for: the local sandbox, or SandboxFusion-compatible services
export { configuredSandboxUrls, openProgramGrader, sandboxHostAddresses, type RemoteSandboxOptions } from "./open-program-grader.js";
// Grading on SandboxFusion-compatible services (--sandbox-url)
export { RemoteCodeGrader, type RemoteCodeGraderOptions } from "./remote/remote-code-grader.js";
export { RunCodeRequestSchema, RunCodeResponseSchema, type RunCodeRequest, type RunCodeResponse } from "rllm-ts/sandbox";
export { codeGradeVerifier, CodeRowSchema, type CodeRow } from "./code-grade-verifier.js";
export { ProgramVerdictSchema, TestResultSchema, TestVerdictKindSchema, type ProgramVerdict, type TestResult, type TestVerdictKind } from "./test-verdict.js";
// Tests and comparison
export { normalizeTests, TestCaseSchema, TestDecodeError, type TestCase, type NormalizedTests } from "./normalize-tests.js";
export { compareStdout } from "./compare-stdout.js";
export { parsePythonJson, pythonEquals, type PythonValue } from "./python-value.js";
export { extractProgram, extractLastCodeBlock } from "./extract-code.js";
// The sandbox and language runners
export { SandboxUnavailableError, SandboxLimitsSchema, pythonRunner, type SandboxLimits, type LanguageRunner, type RunJob, type RunMode } from "rllm-ts/sandbox";
