// Which API key goes to which sandbox service (issue #44): a key config.json names for one service goes to that
// service only; services without one get the shared key; config.json's entries are validated by zod, naming the field.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors/input-error.js";
import { readUserConfig, type SandboxServices } from "../../../src/core/user-config.js";
import { configuredSandboxUrls, sandboxHostAddresses } from "../../../verifiers/code/open-program-grader.js";

const services: SandboxServices = {
  urls: ["http://shared-1:8080", { url: "http://theirs:8080/run_code", apiKeyEnv: "THEIR_KEY" }, { url: "http://mine:8080", apiKeyEnv: "MY_KEY" }],
};
const environment = { THEIR_KEY: "their-key", MY_KEY: "my-key", RLLM_SANDBOX_API_KEY: "shared-key" };

describe("sandboxHostAddresses", () => {
  it("gives each service listed with its own key that key, and the others the shared one", () => {
    expect(sandboxHostAddresses(configuredSandboxUrls(services), services, environment)).toEqual([
      { url: "http://shared-1:8080", apiKey: "shared-key" },
      { url: "http://theirs:8080/run_code", apiKey: "their-key" },
      { url: "http://mine:8080", apiKey: "my-key" },
    ]);
  });

  it("matches a --sandbox-url to its config entry in either form (root or /run_code URL)", () => {
    expect(sandboxHostAddresses(["http://theirs:8080/", "http://elsewhere:9000"], services, environment)).toEqual([
      { url: "http://theirs:8080/", apiKey: "their-key" },
      { url: "http://elsewhere:9000", apiKey: "shared-key" },
    ]);
  });

  it("sends no key where its variable is unset, and reads the shared key from sandbox.apiKeyEnv", () => {
    expect(sandboxHostAddresses(["http://mine:8080"], services, {})).toEqual([{ url: "http://mine:8080" }]);
    expect(sandboxHostAddresses(["http://a:1"], { urls: ["http://a:1"], apiKeyEnv: "POOL_KEY" }, { POOL_KEY: "pool", RLLM_SANDBOX_API_KEY: "other" })).toEqual([
      { url: "http://a:1", apiKey: "pool" },
    ]);
  });
});

describe("config.json's sandbox.urls", () => {
  let home: string | undefined;
  afterEach(() => home && rmSync(home, { recursive: true, force: true }));

  const configWith = (sandbox: unknown) => {
    home = mkdtempSync(path.join(tmpdir(), "rllm-config-"));
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ sandbox }));
    return home;
  };

  it("takes URLs and {url, apiKeyEnv} entries", () => {
    expect(readUserConfig(configWith(services)).sandbox).toEqual(services);
  });

  it("refuses an entry without its key variable, or with an unknown field, naming the field", () => {
    expect(() => readUserConfig(configWith({ urls: [{ url: "http://a:1" }] }))).toThrow(InputError);
    expect(() => readUserConfig(configWith({ urls: [{ url: "http://a:1", apiKey: "inline" }] }))).toThrow(/sandbox\.urls\.0/);
  });
});
