/** The environment half of the sandbox contract: one isolated world per episode (a terminal task's), from the local provider (bubblewrap) or docker: run commands, move files, close. */
import { z } from "zod";

/** Who runs a command: the agent (no access to /logs/verifier) or the verifier (the only one that can write the reward). */
export type SandboxRole = "agent" | "verifier";

/** Options of one `exec`. */
export interface ExecOptions {
  /** Kill the command's whole process group after this many ms (default: the sandbox's command timeout). */
  timeoutMs?: number;
  role?: SandboxRole;
  env?: Record<string, string>;
  /** Working directory inside the sandbox (default: the task's workdir). */
  cwd?: string;
  /** Cancels the command (its process group is killed). */
  signal?: AbortSignal;
}

/** What one command did; output beyond the cap is cut and `truncated` set. */
export interface ExecResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

/** The limits and permissions of one sandbox, from the task's fields and the user's flags. */
export const SandboxSpecSchema = z.object({
  /** The agent's working directory inside the sandbox (Harbor's WORKDIR; /app in Terminal-Bench images). */
  workdir: z.string().default("/app"),
  /** Network inside the sandbox: only when the task allows it and the user passed --allow-network. */
  allowNetwork: z.boolean().default(false),
  cpus: z.number().positive().optional(),
  memoryMb: z.number().int().positive().default(2048),
  /** Processes and threads of the whole sandbox (the fork-bomb cap). */
  processes: z.number().int().positive().default(256),
  /** Per-command time limit when the caller gives none. */
  commandTimeoutMs: z.number().int().positive().default(180_000),
  /** stdout and stderr kept per command, each. */
  outputBytes: z.number().int().positive().default(1024 * 1024),
  /** Environment variables every command sees (the task's [environment].env). */
  env: z.record(z.string(), z.string()).default({}),
  /** The image to run (docker backend only). */
  image: z.string().optional(),
  /** A folder with a Dockerfile to build when there is no image (docker backend only). */
  buildContext: z.string().optional(),
  buildTimeoutMs: z.number().int().positive().default(600_000),
});
export type SandboxSpec = z.infer<typeof SandboxSpecSchema>;

/** A per-episode sandbox. Everything it started is gone after `close`. */
export interface SandboxEnvironment {
  /** The provider that made it. */
  readonly provider: "local" | "docker";
  readonly spec: SandboxSpec;
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Copies a host file or folder to `sandboxPath` (created with its parents). */
  upload(hostPath: string, sandboxPath: string): Promise<void>;
  /** Copies a sandbox file or folder to `hostPath`. */
  download(sandboxPath: string, hostPath: string): Promise<void>;
  /** The text of a sandbox file, or undefined when there is none. */
  readText(sandboxPath: string): Promise<string | undefined>;
  /** Kills every command still running (the agent's, when its time is up). */
  killAll(): Promise<void>;
  isAlive(): boolean;
  close(): Promise<void>;
}
