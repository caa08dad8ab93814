/** The language-pluggable part of the local program slots: how to start a language's fork server inside the sandbox. */
import type { Mount } from "./sandbox-command.js";
import type { SandboxHost } from "./sandbox-host.js";

/** What the fork server applies to every run it forks. */
export interface ForkServerConfig {
  /** Working directory of every run, emptied after each. */
  scratch: string;
  /** RLIMIT_AS of each forked process, bytes. */
  memoryBytes: number;
  fileBytes: number;
  openFiles: number;
  /** RLIMIT_NPROC, or null when a pids cgroup caps the sandbox instead. */
  processes: number | null;
  /**
   * The slot's number: its processes keep to the CPU of that rank among those the fork server may use (slot mod
   * count), so a job's many hand-offs between them stay on one CPU (runner-specific; see docs/code-sandbox.md).
   */
  slot: number;
}

export interface LanguageRunner {
  language: string;
  /** Host files the runner needs inside the sandbox (read-only). */
  mounts: Mount[];
  /** The fork server's command inside the sandbox. */
  argv(host: SandboxHost, config: ForkServerConfig): string[];
  /** Exit code a run uses when the program tried something the policy denies (starting a process). */
  deniedExitCode: number;
}
