/**
 * The sandbox contract: a run's sandbox is one provider (local, docker or remote, as `--sandbox` chose) behind one
 * interface, as inspect_ai's sandbox environments are. A flow opens an isolated environment per episode from it, a
 * code grader its program slots; what a provider cannot do it refuses by name. The run's services open it and record
 * what it resolved in the run folder's config.json; `rllm-ts/sandbox` implements it.
 */
import { z } from "zod";
import type { ProgramSandbox, ProgramSandboxOptions } from "./program-sandbox.js";
import type { SandboxEnvironment, SandboxSpec } from "./sandbox-environment.js";
import type { SandboxSetting } from "./sandbox-setting.js";

/** The interpreter a local sandbox runs programs with, and why that one. */
export const PythonRecordSchema = z
  .object({
    /** The real binary (symlinks and pyenv shims resolved). */
    executable: z.string(),
    version: z.string(),
    /** How it was chosen: --python, $RLLM_PYTHON, the pinned sandbox environment, or python3 on PATH. */
    source: z.string(),
    /** The packages the pinned environment holds, with the version this interpreter has (null: not installed). */
    packages: z.record(z.string(), z.string().nullable()),
  })
  .strict();
export type PythonRecord = z.infer<typeof PythonRecordSchema>;

/** What a run folder's config.json records about the sandbox: the provider and what it resolved while the run ran. */
export const SandboxRecordSchema = z
  .object({
    provider: z.enum(["local", "docker", "remote"]),
    /** local: bubblewrap (with seccomp and cgroups) or, under --unsafe-no-sandbox on a machine without it, none. */
    isolation: z.string().optional(),
    python: PythonRecordSchema.optional(),
    /** remote: the hosts. */
    urls: z.array(z.string()).optional(),
  })
  .strict();
export type SandboxRecord = z.infer<typeof SandboxRecordSchema>;

/** A run's sandbox. */
export interface Sandbox {
  /** What the run chose. */
  readonly setting: SandboxSetting;
  /** What it is so far: the provider, and once programs ran, the interpreter and its packages. */
  record(): SandboxRecord;
  /** A fresh isolated environment for one episode (a terminal task's); the caller closes it. */
  openEnvironment(spec: Partial<SandboxSpec>): Promise<SandboxEnvironment>;
  /** Slots or hosts that run programs for a code grader; the caller closes them. */
  openPrograms(options?: ProgramSandboxOptions): Promise<ProgramSandbox>;
}
