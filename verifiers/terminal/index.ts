/** The terminal verifier: the sandboxes a terminal task runs in (bubblewrap, Docker) and the task's own tests run in them. */
export type { Sandbox, SandboxSpec, ExecOptions, ExecResult } from "./sandbox/sandbox.js";
export { createBwrapSandbox, type BwrapSandboxOptions } from "./sandbox/bwrap-sandbox.js";
export { createDockerSandbox } from "./sandbox/docker-sandbox.js";
export { verifyTerminalTask, type TerminalVerification, type TerminalGrade } from "./verify-terminal-task.js";
