/**
 * The program half of the sandbox contract: what a code grader runs untrusted programs on. The local provider offers
 * slots (a fork server per sandbox, and a trusted checker that calls a program's functions without sharing its
 * process); a remote provider offers SandboxFusion's `/run_code` on a pool of hosts, where a program and anything that
 * calls it share one process. A grader asks which it has (`kind`), because only the first may run tests whose
 * expected values the program must not see.
 */
import type { HostLimits, RunCodeRequest, RunCodeResponse } from "./sandbox-fusion-protocol.js";
import type { SandboxLimits } from "./sandbox-limits.js";

/** stdio: one forked run per test, stdin in, stdout out. functional / assert: one run per problem, a trusted checker calls the program. */
export type ProgramMode = "stdio" | "functional" | "assert";

/** One run of a program in a local slot. */
export interface ProgramJob {
  mode: ProgramMode;
  program: string;
  /** stdio: the test's standard input. */
  stdin?: string;
  /** functional: each test's arguments, one JSON value per line (sent to the checker, never to the program). */
  inputs?: string[];
  /** assert: test code run by the checker, with the program's functions as proxies (never sent to the program). */
  asserts?: string[];
  fnName?: string;
  /** functional / assert: the checker runs every test instead of stopping at the first failure. */
  runAll?: boolean;
}

/** Time and output limits of one sandboxed run. */
export interface RunBudget {
  /** Without records: the wall-clock limit; with records: the longest wait for the next one. */
  idleTimeoutMs: number;
  deadlineMs: number;
  cpuSeconds: number;
  /** stdout cap when it must exceed the default (a test whose expected output is larger). */
  outputBytes?: number;
}

/** What one run in a local slot did. */
export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: Buffer;
  /** The last stderrBytes of the program's stderr. */
  stderr: string;
  timedOut: boolean;
  outputLimitExceeded: boolean;
  stoppedEarly: boolean;
  /** The sandbox's memory cap (cgroup) was hit during the job. */
  memoryCapHit: boolean;
  wallMs: number;
  checkerStderr: string;
  /** Why the sandbox itself ended during the job (its fork server's last words), or null when it answered. */
  sandboxFailure: string | null;
}

/** The local provider's program slots. */
export interface LocalPrograms {
  readonly kind: "local";
  /** Programs run at once: one slot each. */
  readonly concurrency: number;
  /** Said once per run when the isolation is weaker than documented (no cgroups), else undefined. */
  readonly notice: string | undefined;
  readonly limits: SandboxLimits;
  /** The exit code a program uses when the policy denied it something (starting a process). */
  readonly deniedExitCode: number;
  /** Runs one job while holding a slot; `onRecord` sees each checker record and may stop the job. */
  run(job: ProgramJob, budget: RunBudget, onRecord?: (line: string) => "continue" | "stop"): Promise<ProcessOutcome>;
  /** Runs `program` once on `stdin` with a wall-clock limit, as a `/run_code` request asks. */
  execute(program: string, stdin: string, timeoutSeconds: number, outputBytes?: number): Promise<ProcessOutcome>;
  /** Kills every slot and removes its cgroups and scratch folders. */
  close(): Promise<void>;
}

/** A run a remote host did: its reply, with a run result the program produced, and the limits the host states. */
export interface PooledRunResult {
  host: string;
  response: RunCodeResponse;
  limits: HostLimits;
}

/**
 * The remote provider's hosts. `run` throws AllHostsFailedError, with each host's reason, when no host did the run: a
 * host's limit or fault is never the program's failure.
 */
export interface RemotePrograms {
  readonly kind: "remote";
  /** Programs sent at once (2 per host: more only wait in the services' queues). */
  readonly concurrency: number;
  readonly notice: undefined;
  run(request: RunCodeRequest, signal?: AbortSignal): Promise<PooledRunResult>;
  /** Runs and failures per host, for the run's log. */
  readonly statistics: { url: string; runs: number; failures: number }[];
  close(): Promise<void>;
}

/** What a sandbox offers for running programs. */
export type ProgramSandbox = LocalPrograms | RemotePrograms;

/** How a run wants its programs run. */
export interface ProgramSandboxOptions {
  /** Programs at once (default: all cores locally, 2 per host remotely). */
  concurrency?: number;
  /** Limits of each sandbox and of each process in it (default: SandboxLimitsSchema's). */
  limits?: Partial<SandboxLimits>;
}
