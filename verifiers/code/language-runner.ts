/** The language-pluggable part of the code verifier: how to start a program of one language inside the sandbox. */
import type { Mount } from "./sandbox/sandbox-command.js";
import type { SandboxHost } from "./sandbox/sandbox-host.js";

/** stdio: one process per test, stdin in, stdout out. functional / assert: one process per problem, results on fd 3. */
export type RunMode = "stdio" | "functional" | "assert";

export interface RunJob {
  mode: RunMode;
  program: string;
  /** stdio: the test's standard input. */
  stdin?: string;
  /** functional: each test's arguments, one JSON value per line. */
  inputs?: string[];
  /** assert: code blocks run after the program, in its namespace. */
  asserts?: string[];
  fnName?: string;
  /** functional / assert: the end record must carry this value. */
  nonce?: string;
}

export interface LanguageRunner {
  language: string;
  /** Host files the runner needs inside the sandbox (read-only). */
  mounts: Mount[];
  /** The command run inside the sandbox. */
  argv(host: SandboxHost): string[];
  /** The bytes written to the process's stdin. */
  encodeStdin(job: RunJob): Buffer;
  /** Exit code the runner uses when the program tried something the policy denies (starting a process). */
  deniedExitCode: number;
}
