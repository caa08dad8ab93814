// rllm models and the commands that run a pulled model: before the pull, each says in one line how to get it; after it,
// rllm rerank judges with it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { TEST_MODEL, testModelFile } from "../helpers/test-model.js";

const emptyHome = mkdtempSync(path.join(tmpdir(), "rllm-no-models-"));
afterAll(() => rmSync(emptyHome, { recursive: true, force: true }));
const rowsFile = path.join(emptyHome, "candidates.jsonl");
writeFileSync(rowsFile, `${JSON.stringify({ id: "t1", problem: "What is 2 + 2?", candidates: ["The answer is 4.", "The answer is 5."] })}\n`);

describe("a model that is not pulled", () => {
  for (const args of [
    ["serve", "--model", "smollm2-135m", "--port", "0"],
    ["eval", "arith", "--model", "smollm2-135m", "--limit", "1"],
    ["rerank", "--input", rowsFile, "--model", "smollm2-135m"],
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

describe("rllm serve with a model flag it would not use", () => {
  const ggufFile = path.join(emptyHome, "local.gguf");
  writeFileSync(ggufFile, "GGUF");
  for (const [args, flag] of [
    [["serve", "--model", "tiny", "--model-file", ggufFile, "--port", "0"], "--model-file"],
    [["serve", "--tinker", "--model-file", ggufFile, "--port", "0"], "--model-file"],
    [["serve", "--model", "tiny", "--base-model", TEST_MODEL, "--port", "0"], "--base-model"],
  ] as const) {
    it(`rllm serve ${args.filter((arg) => arg.startsWith("--") && arg !== "--port").join(" ")} refuses ${flag} in one line and exits 2 instead of serving another model`, async () => {
      const result = await runCli([...args], { RLLM_HOME: emptyHome });
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toMatch(new RegExp(`^rllm: ${flag} [^\\n]*$`));
    }, 120_000);
  }
});

describe("a pulled model", () => {
  it("judges rllm rerank --model smollm2-135m on llama.cpp, and says so", async () => {
    await testModelFile();
    const result = await runCli(["rerank", "--input", rowsFile, "--model", TEST_MODEL, "--threads", "1", "--max-calls", "1", "--max-tokens", "4", "--temperature", "0"]);
    expect(result.stderr).toContain(`judging with ${TEST_MODEL} on llama.cpp`);
    expect(result.stderr).not.toContain("tiny");
    // One judge call: the 4-token reply holds no rating, so the method is failed (exit 1) but the pick is written.
    expect(JSON.parse(result.stdout)).toMatchObject({ id: "t1", method: "v1", judgeCalls: 1 });
  }, 600_000);
});
