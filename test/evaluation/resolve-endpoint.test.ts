import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planEndpoint } from "../../src/evaluation/resolve-endpoint.js";

const homeWith = (config: unknown) => {
  const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
  writeFileSync(path.join(home, "config.json"), JSON.stringify(config));
  return home;
};
const local = { baseUrl: "http://127.0.0.1:8000/v1", model: "qwen", apiKeyEnv: "RLLM_TEST_LOCAL_KEY", prices: { input: 0.1, output: 0.2 } };

describe("planEndpoint with --endpoint", () => {
  it("takes base URL, model, prices and the key (read from the named variable) from the user config", () => {
    process.env.RLLM_TEST_LOCAL_KEY = "secret-from-the-environment";
    const plan = planEndpoint({ endpoint: "local-vllm" }, homeWith({ endpoints: { "local-vllm": local } }));
    expect(plan).toEqual({ isEmbedded: false, baseUrl: local.baseUrl, model: "qwen", apiKey: "secret-from-the-environment", price: local.prices });
    delete process.env.RLLM_TEST_LOCAL_KEY;
  });

  it("names the known endpoints when the name is unknown", () => {
    expect(() => planEndpoint({ endpoint: "remote" }, homeWith({ endpoints: { "local-vllm": local } }))).toThrow(/--endpoint remote: no such endpoint .*known: local-vllm/);
  });

  it("refuses a key stored in the file, naming the field", () => {
    const home = homeWith({ endpoints: { "local-vllm": { ...local, apiKey: "sk-123" } } });
    expect(() => planEndpoint({ endpoint: "local-vllm" }, home)).toThrow(/field "endpoints.local-vllm": Unrecognized key: "apiKey"/);
  });

  it("refuses --endpoint together with --base-url", () => {
    expect(() => planEndpoint({ endpoint: "local-vllm", baseUrl: "http://x/v1", model: "m" }, homeWith({}))).toThrow(/without baseUrl and model/);
  });
});
