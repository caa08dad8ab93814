/** The sandboxes that run untrusted code (the `rllm-ts/sandbox` entry): the local bubblewrap slots and episode sandboxes, Docker, and SandboxFusion-compatible services. */
// Shared
export { SandboxUnavailableError, installBubblewrap } from "./sandbox-unavailable-error.js";
export { findExecutable } from "./find-executable.js";
// The local provider: fork-server slots for programs, a bubblewrap sandbox per episode
export { SandboxSlot, type SlotCommand, type SlotJob, type ProcessOutcome } from "./local/sandbox-slot.js";
export { SlotPool } from "./local/slot-pool.js";
export { sandboxCommand, type Mount, type SandboxCommandOptions } from "./local/sandbox-command.js";
export { detectSandboxHost, type SandboxHost, type DetectSandboxHostOptions } from "./local/sandbox-host.js";
export { SandboxLimitsSchema, type SandboxLimits } from "../core/sandbox-limits.js";
export { createSlotCgroups, type SlotCgroup, type SlotCgroups } from "./local/sandbox-cgroup.js";
export { findPython, type PythonInstallation } from "./local/find-python.js";
export { pythonCommand, takePythonProbe } from "./local/python-probe.js";
export { pythonRunner } from "./local/python-runner.js";
export type { LanguageRunner, RunJob, RunMode, ForkServerConfig } from "./local/language-runner.js";
export { createBwrapSandbox, type BwrapSandboxOptions } from "./local/bwrap-sandbox.js";
// The docker provider
export { createDockerSandbox } from "./docker/docker-sandbox.js";
// The remote provider: SandboxFusion's /run_code, a pool of such hosts
export { SandboxHostPool, AllHostsFailedError, type PooledRunResult, type SandboxHostAddress, type SandboxHostPoolOptions } from "./remote/sandbox-host-pool.js";
export { callRunCode, probeSandboxHost, runCodeUrl, type RunCodeCallOptions } from "./remote/sandbox-fusion-client.js";
export { HostFailureError } from "./remote/host-failure-error.js";
export {
  RunCodeRequestSchema,
  RunCodeResponseSchema,
  CommandRunResultSchema,
  outputExceededNote,
  sandboxFusionCapturedBytes,
  limitHeaders,
  supportedLanguages,
  type HostLimits,
  type RunCodeRequest,
  type RunCodeResponse,
  type ParsedRunCodeRequest,
  type CommandRunResult,
} from "../core/sandbox-fusion-protocol.js";
