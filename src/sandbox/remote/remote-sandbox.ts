/**
 * The remote provider: SandboxFusion-compatible services (`rllm sandbox serve`, or SandboxFusion) behind one pool of
 * hosts. A service runs one program per request, so it offers programs only; an episode's environment needs the
 * local or docker provider.
 */
import { InputError } from "../../core/errors/input-error.js";
import type { Sandbox } from "../../core/sandbox.js";
import { defaultSandboxApiKeyEnv, type SandboxSetting } from "../../core/sandbox-setting.js";

/** The remote sandbox for `setting`; the key is read from `environment` now, never written anywhere. */
export function createRemoteSandbox(setting: Extract<SandboxSetting, { provider: "remote" }>, environment: NodeJS.ProcessEnv = process.env): Sandbox {
  const apiKey = environment[setting.apiKeyEnv ?? defaultSandboxApiKeyEnv] || undefined;
  return {
    setting,
    record: () => ({ provider: "remote", urls: setting.urls }),
    async openEnvironment() {
      throw new InputError("--sandbox URL: a SandboxFusion service runs single programs, not a terminal task's environment; use --sandbox local or --sandbox docker");
    },
    async openPrograms(options = {}) {
      const memoryBytes = options.limits?.memoryBytes;
      const { RemoteProgramHosts } = await import("./remote-programs.js");
      return new RemoteProgramHosts(setting.urls, {
        apiKey,
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(memoryBytes !== undefined ? { memoryMb: Math.round(memoryBytes / 1024 ** 2) } : {}),
      });
    },
  };
}
