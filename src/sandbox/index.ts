/**
 * The sandboxes that run untrusted code (the `rllm-ts/sandbox` entry): three providers behind the Sandbox contract of
 * `rllm-ts/core`. local: bubblewrap, seccomp and cgroups on this machine; docker: a container per episode; remote:
 * SandboxFusion-compatible services. `openSandbox` makes the one a setting names.
 */
export { openSandbox } from "./open-sandbox.js";
export { openRunResources, type OwnedRunResources, type ResourcesRecord, type RunResourceOptions } from "./run-resources.js";
export { SandboxUnavailableError, installBubblewrap } from "./sandbox-unavailable-error.js";
// The local provider
export { createLocalSandbox } from "./local/local-sandbox.js";
export { createBwrapEnvironment, type BwrapEnvironmentOptions } from "./local/bwrap-environment.js";
export { openLocalPrograms, LocalProgramSlots, type LocalProgramsOptions } from "./local/local-programs.js";
export { resolvePython, sandboxLockFile, type ResolvedPython, type ResolvePythonOptions } from "./local/resolve-python.js";
export type { PythonInstallation } from "./local/find-python.js";
export { pythonRunner } from "./local/python-runner.js";
export type { LanguageRunner, ForkServerConfig } from "./local/language-runner.js";
// The docker provider
export { createDockerSandbox } from "./docker/docker-sandbox.js";
export { createDockerEnvironment, type DockerEnvironmentOptions } from "./docker/docker-environment.js";
// The remote provider
export { createRemoteSandbox, sandboxHostAddresses } from "./remote/remote-sandbox.js";
export { openRemotePrograms, RemoteProgramHosts, type RemoteProgramsOptions } from "./remote/remote-programs.js";
export type { SandboxHostAddress } from "./remote/sandbox-host-pool.js";
