/** What the stdio and function-call test runners need from the grader: a way to run one sandboxed job, and the grading options. */
import type { LanguageRunner, ProcessOutcome, RunJob, SandboxLimits } from "rllm-ts/sandbox";

/** Time and output limits of one sandboxed run. */
export interface RunBudget {
  /** Without records: the wall-clock limit; with records: the longest wait for the next one. */
  idleTimeoutMs: number;
  deadlineMs: number;
  cpuSeconds: number;
  /** stdout cap when it must exceed the default (a test whose expected output is larger). */
  outputBytes?: number;
}

export interface RunContext {
  run(job: RunJob, budget: RunBudget, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome>;
  runner: LanguageRunner;
  limits: SandboxLimits;
  timeoutMs: number;
  runAllTests: boolean;
  floatTolerance?: number;
}
