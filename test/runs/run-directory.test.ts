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
