import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkRunDirectory } from "../../src/runs/run-directory.js";

describe("checkRunDirectory's --resume comparison", () => {
  const saved = (config: Record<string, unknown>) => {
    const directory = mkdtempSync(path.join(tmpdir(), "rllm-run-directory-"));
    writeFileSync(path.join(directory, "config.json"), JSON.stringify({ formatVersion: 2, ...config }));
    return directory;
  };

  it("resumes a run made before the sandbox was recorded when it runs in the local sandbox, which was the only one then", () => {
    const directory = saved({ command: "eval", benchmark: "arith" });
    expect(() => checkRunDirectory(directory, { command: "eval", benchmark: "arith", sandbox: { provider: "local" } }, true)).not.toThrow();
  });

  it("refuses it in another sandbox, and any run whose recorded sandbox differs", () => {
    const before = saved({ command: "eval", benchmark: "arith" });
    expect(() => checkRunDirectory(before, { command: "eval", benchmark: "arith", sandbox: { provider: "docker" } }, true)).toThrow(/sandbox: \(unset\) → \{"provider":"docker"\}/);
    const recorded = saved({ command: "eval", benchmark: "arith", sandbox: { provider: "docker" } });
    expect(() => checkRunDirectory(recorded, { command: "eval", benchmark: "arith", sandbox: { provider: "local" } }, true)).toThrow(/different config/);
  });
});

describe("rllm train's --resume of a run made before a train-config key existed", () => {
  it("compares the saved config with today's defaults filled in: a run saved before async and maskTruncated resumes with the same flags", async () => {
    const { TrainConfigSchema, withTrainConfigDefaults } = await import("../../src/training/train-config.js");
    const config = TrainConfigSchema.parse({ steps: 2 });
    const current = { command: "train", cookbook: "arith", backend: "local", checkpoint: null, sandbox: { provider: "local" }, ...config, out: undefined, maxInfraErrorRate: undefined };
    // As written before #48: no async section, no transform.maskTruncated.
    const { async: _async, ...before } = JSON.parse(JSON.stringify(current));
    delete before.transform.maskTruncated;
    const directory = mkdtempSync(path.join(tmpdir(), "rllm-train-resume-"));
    writeFileSync(path.join(directory, "config.json"), JSON.stringify({ formatVersion: 2, ...before }));
    expect(() => checkRunDirectory(directory, current, true)).toThrow(/async: \(unset\)/);
    expect(() => checkRunDirectory(directory, current, true, withTrainConfigDefaults)).not.toThrow();
    // A setting that differs is still refused, by name.
    expect(() => checkRunDirectory(directory, { ...current, steps: 3 }, true, withTrainConfigDefaults)).toThrow(/steps: 2 → 3/);
  });
});
