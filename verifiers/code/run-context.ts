/** What the stdio and function-call test runners need from the grader: a way to run one sandboxed job, and the grading options. */
import type { ProcessOutcome, ProgramJob, RunBudget, SandboxLimits } from "rllm-ts/core";

export interface RunContext {
  run(job: ProgramJob, budget: RunBudget, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome>;
  /** The exit code a program uses when the sandbox's policy denied it something. */
  deniedExitCode: number;
  limits: SandboxLimits;
  timeoutMs: number;
  runAllTests: boolean;
  floatTolerance?: number;
}
