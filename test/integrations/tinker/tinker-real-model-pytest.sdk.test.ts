// Runs integrations/tinker-real-model's Python suite: the official tinker SDK (0.38.0) and tinker-cookbook's sl_loop and
// rl_loop against `rllm serve --tinker --base-model smollm2-135m` (LoRA in a torch worker, sampling on llama.cpp), from
// the pinned ml environment. The model is pulled once first (test/helpers/test-model.ts). Nothing may skip.
import { describe, expect, it } from "vitest";
import { runPytestSuite } from "../../helpers/run-pytest-suite.js";
import { testModelFile } from "../../helpers/test-model.js";

describe("integrations/tinker-real-model pytest suite", () => {
  it("passes with the official SDK and the cookbook recipes on a real model, none skipped", async () => {
    await testModelFile();
    const { status, output } = await runPytestSuite("integrations/tinker-real-model", { TINKER_API_KEY: "" });
    const tail = output.slice(-6000);
    expect(status, tail).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ (failed|skipped|error)/);
  }, 1_800_000);
});
