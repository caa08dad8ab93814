// rllm models and the commands that run a pulled model: before the pull, each says in one line how to get it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const emptyHome = mkdtempSync(path.join(tmpdir(), "rllm-no-models-"));
afterAll(() => rmSync(emptyHome, { recursive: true, force: true }));

describe("a model that is not pulled", () => {
  for (const args of [
    ["serve", "--model", "smollm2-135m", "--port", "0"],
    ["eval", "arith", "--model", "smollm2-135m", "--limit", "1"],
  ]) {
    it(`rllm ${args.slice(0, 2).join(" ")} names rllm models pull in one line and exits 2`, async () => {
      const result = await runCli(args, { RLLM_HOME: emptyHome });
      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("rllm models pull smollm2-135m");
    });
  }

  it("rllm models list says how to pull it", async () => {
    const result = await runCli(["models", "list"], { RLLM_HOME: emptyHome });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("smollm2-135m");
    expect(result.stdout).toContain("not pulled (rllm models pull smollm2-135m)");
  });

  it("rllm models pull of an unknown name lists the known ones", async () => {
    const result = await runCli(["models", "pull", "gpt-5"], { RLLM_HOME: emptyHome });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('rllm: unknown model "gpt-5"; available: smollm2-135m');
  });
});
