/** The terminal verifier: the sandboxes a terminal task runs in (bubblewrap, Docker) and the task's own tests run in them. */
export type { Sandbox, SandboxSpec, ExecOptions, ExecResult } from "rllm-ts/core";
export { createBwrapSandbox, createDockerSandbox, type BwrapSandboxOptions } from "rllm-ts/sandbox";
export { verifyTerminalTask, type TerminalVerification, type TerminalGrade } from "./verify-terminal-task.js";
