import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runDataSource, runSplit } from "../../src/cli/commands/export.js";

const runFolder = (config: Record<string, unknown>) => {
  const run = mkdtempSync(path.join(os.tmpdir(), "rllm-export-"));
  writeFileSync(path.join(run, "config.json"), JSON.stringify(config));
  const step = path.join(run, "steps", "0003");
  mkdirSync(step, { recursive: true });
  return { run, step };
};

describe("rllm export's data_source", () => {
  it("names the benchmark of an eval run", () => {
    expect(runDataSource(runFolder({ benchmark: "finqa", cookbook: "finqa" }).run)).toBe("finqa");
  });

  it("names the training run's benchmark for a training-step folder, read from the run two levels up", () => {
    const { step } = runFolder({ command: "train", cookbook: "arith", backend: "local" });
    expect(runDataSource(step)).toBe("arith");
    expect(runDataSource(runFolder({ command: "train", cookbook: "qa", benchmark: "math" }).step)).toBe("math");
  });
});

describe("rllm export's extra_info.split", () => {
  it("is an eval run's split, and a training run's train split for its step folders", () => {
    expect(runSplit(runFolder({ benchmark: "math", split: "test" }).run)).toBe("test");
    expect(runSplit(runFolder({ command: "train", cookbook: "arith", trainSplit: "train" }).step)).toBe("train");
    expect(runSplit(runFolder({ command: "train", cookbook: "arith", trainSplit: "dev" }).step)).toBe("dev");
  });
});
