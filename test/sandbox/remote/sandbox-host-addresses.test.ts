// Which API key goes to which sandbox service (issue #44): a key config.json names for one service goes to that
// service only; services without one get the shared key; a --sandbox URL that config.json lists keeps its key; the
// setting's entries are validated by zod, naming the field.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors/input-error.js";
import { parseSandboxText, withConfiguredKeys, type SandboxSetting } from "../../../src/core/sandbox-setting.js";
import { configuredSandbox, readUserConfig } from "../../../src/core/user-config.js";
import { sandboxHostAddresses } from "../../../src/sandbox/remote/remote-sandbox.js";

type RemoteSetting = Extract<SandboxSetting, { provider: "remote" }>;

const configured: RemoteSetting = {
  provider: "remote",
  urls: ["http://shared-1:8080", { url: "http://theirs:8080/run_code", apiKeyEnv: "THEIR_KEY" }, { url: "http://mine:8080", apiKeyEnv: "MY_KEY" }],
};
const environment = { THEIR_KEY: "their-key", MY_KEY: "my-key", RLLM_SANDBOX_API_KEY: "shared-key" };

/** `--sandbox text` as a remote setting. */
function flag(text: string): RemoteSetting {
  const parsed = parseSandboxText(text);
  if (!("setting" in parsed) || parsed.setting.provider !== "remote") throw new Error(`not a remote setting: ${text}`);
  return parsed.setting;
}

describe("sandboxHostAddresses", () => {
  it("gives each service listed with its own key that key, and the others the shared one", () => {
    expect(sandboxHostAddresses(configured, environment)).toEqual([
      { url: "http://shared-1:8080", apiKey: "shared-key" },
      { url: "http://theirs:8080/run_code", apiKey: "their-key" },
      { url: "http://mine:8080", apiKey: "my-key" },
    ]);
  });

  it("matches a --sandbox URL to its config entry in either form (root or /run_code URL)", () => {
    const setting = withConfiguredKeys(flag("http://theirs:8080/,http://elsewhere:9000"), configured);
    if (setting.provider !== "remote") throw new Error("not remote");
    expect(sandboxHostAddresses(setting, environment)).toEqual([
      { url: "http://theirs:8080/", apiKey: "their-key" },
      { url: "http://elsewhere:9000", apiKey: "shared-key" },
    ]);
  });

  it("sends no key where its variable is unset, and reads the shared key from the setting's apiKeyEnv", () => {
    expect(sandboxHostAddresses(configured, {})).toEqual([{ url: "http://shared-1:8080" }, { url: "http://theirs:8080/run_code" }, { url: "http://mine:8080" }]);
    expect(sandboxHostAddresses({ provider: "remote", urls: ["http://a:1"], apiKeyEnv: "POOL_KEY" }, { POOL_KEY: "pool", RLLM_SANDBOX_API_KEY: "other" })).toEqual([
      { url: "http://a:1", apiKey: "pool" },
    ]);
  });
});

describe("config.json's sandbox services", () => {
  let home: string | undefined;
  afterEach(() => home && rmSync(home, { recursive: true, force: true }));

  const configWith = (sandbox: unknown) => {
    home = mkdtempSync(path.join(tmpdir(), "rllm-config-"));
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ sandbox }));
    return home;
  };

  it("takes URLs and {url, apiKeyEnv} entries", () => {
    expect(readUserConfig(configWith(configured)).sandbox).toEqual(configured);
  });

  it("gives a --sandbox naming a listed service that service's key variable, and the shared variable config.json names", () => {
    const folder = configWith({ ...configured, apiKeyEnv: "POOL_KEY" });
    expect(configuredSandbox(folder, flag("http://mine:8080,http://new:1"))).toEqual({
      provider: "remote",
      urls: [{ url: "http://mine:8080", apiKeyEnv: "MY_KEY" }, "http://new:1"],
      apiKeyEnv: "POOL_KEY",
    });
  });

  it("refuses an entry without its key variable, or with an unknown field, naming the field", () => {
    expect(() => readUserConfig(configWith({ provider: "remote", urls: [{ url: "http://a:1" }] }))).toThrow(InputError);
    expect(() => readUserConfig(configWith({ provider: "remote", urls: [{ url: "http://a:1", apiKey: "inline" }] }))).toThrow(/sandbox\.urls\.0/);
  });
});
