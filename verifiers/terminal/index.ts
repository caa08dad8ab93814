/** The terminal verifier: the sandboxes a terminal task runs in (bubblewrap, Docker) and the task's own tests run in them. */
export type { SandboxEnvironment, SandboxSpec, ExecOptions, ExecResult } from "rllm-ts/core";
export { createBwrapEnvironment, createDockerEnvironment, type BwrapEnvironmentOptions } from "rllm-ts/sandbox";
export { verifyTerminalTask, type TerminalVerification, type TerminalGrade } from "./verify-terminal-task.js";
