import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readEvalSetConfig } from "../../src/cli/commands/eval-set.js";

const write = (name: string, text: string) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-evalset-config-")), name);
  writeFileSync(file, text);
  return file;
};
const errorOf = (file: string) => {
  try {
    readEvalSetConfig(file);
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
};

describe("readEvalSetConfig", () => {
  it("reads YAML with defaults filled in", () => {
    const config = readEvalSetConfig(write("set.yaml", "models:\n  - endpoint: local\nbenchmarks:\n  - benchmark: qa\n"));
    expect(config.benchmarks[0]).toMatchObject({ benchmark: "qa", attempts: 1, split: "test" });
    expect(config.concurrency).toBe(16);
  });

  it("names the path of each bad field", () => {
    const bad = { models: [{ endpoint: "x" }, { baseUrl: "http://h/v1" }], benchmarks: [{ benchmark: "qa", rerank: ["v1", "nope"], limt: 3 }] };
    const message = errorOf(write("set.json", JSON.stringify(bad)));
    expect(message).toContain("models[1].model: required with baseUrl");
    expect(message).toContain("benchmarks[0]");
    expect(message).toMatch(/limt/);
  });

  it("names a bad rerank method by its index", () => {
    const message = errorOf(write("set.json", JSON.stringify({ models: [{ endpoint: "x" }], benchmarks: [{ benchmark: "qa", rerank: ["v1", "nope"] }] })));
    expect(message).toContain("benchmarks[0].rerank[1]");
  });

  it("says which format failed to parse", () => {
    expect(errorOf(write("set.yaml", "models: [unclosed"))).toMatch(/not valid YAML/);
  });
});
