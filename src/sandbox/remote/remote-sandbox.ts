/**
 * The remote provider: SandboxFusion-compatible services (`rllm sandbox serve`, or SandboxFusion) behind one pool of
 * hosts. A service runs one program per request, so it offers programs only; an episode's environment needs the
 * local or docker provider. Opening its programs is where a run finds out that no service answers.
 */
import { InputError } from "../../core/errors/input-error.js";
import type { Sandbox } from "../../core/sandbox.js";
import { defaultSandboxApiKeyEnv, serviceUrls, type SandboxSetting } from "../../core/sandbox-setting.js";
import type { SandboxHostAddress } from "./sandbox-host-pool.js";

type RemoteSetting = Extract<SandboxSetting, { provider: "remote" }>;

/** The remote sandbox for `setting`; the keys are read from `environment` now, never written anywhere. */
export function createRemoteSandbox(setting: RemoteSetting, environment: NodeJS.ProcessEnv = process.env): Sandbox {
  const hosts = sandboxHostAddresses(setting, environment);
  return {
    setting,
    record: () => ({ provider: "remote", urls: serviceUrls(setting) }),
    async openEnvironment() {
      throw new InputError("--sandbox URL: a SandboxFusion service runs single programs, not a terminal task's environment; use --sandbox local or --sandbox docker");
    },
    async openPrograms(options = {}) {
      const memoryBytes = options.limits?.memoryBytes;
      const { openRemotePrograms } = await import("./remote-programs.js");
      return openRemotePrograms(hosts, {
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(memoryBytes !== undefined ? { memoryMb: Math.round(memoryBytes / 1024 ** 2) } : {}),
      });
    },
  };
}

/**
 * Each service with its API key: the variable its entry names, else the shared one (`apiKeyEnv`, default
 * RLLM_SANDBOX_API_KEY). A key named for one service never goes to another; an unset variable sends no key.
 */
export function sandboxHostAddresses(setting: RemoteSetting, environment: NodeJS.ProcessEnv): SandboxHostAddress[] {
  const sharedKey = environment[setting.apiKeyEnv ?? defaultSandboxApiKeyEnv] || undefined;
  return setting.urls.map((service) => {
    const [url, apiKey] = typeof service === "string" ? [service, sharedKey] : [service.url, environment[service.apiKeyEnv] || undefined];
    return apiKey ? { url, apiKey } : { url };
  });
}
