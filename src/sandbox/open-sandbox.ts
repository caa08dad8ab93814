/** Opens the provider a setting names: the one place a run's sandbox is made, for every command and the library. */
import type { Sandbox } from "../core/sandbox.js";
import type { SandboxSetting } from "../core/sandbox-setting.js";
import { createDockerSandbox } from "./docker/docker-sandbox.js";
import { createLocalSandbox } from "./local/local-sandbox.js";
import { createRemoteSandbox } from "./remote/remote-sandbox.js";

/** The run's sandbox for `setting`; the remote provider reads its key from `environment`. */
export function openSandbox(setting: SandboxSetting, environment: NodeJS.ProcessEnv = process.env): Sandbox {
  switch (setting.provider) {
    case "local":
      return createLocalSandbox(setting, { environment });
    case "docker":
      return createDockerSandbox();
    case "remote":
      return createRemoteSandbox(setting, environment);
  }
}
