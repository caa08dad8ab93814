// Runs integrations/tinker's Python suite: the official tinker SDK (0.38.0) and tinker-cookbook's sl_loop and rl_loop
// recipes against `rllm serve --tinker`, from the pinned ml environment (scripts/python-env.sh ml). Nothing may skip.
import { describe, expect, it } from "vitest";
import { runPytestSuite } from "../../helpers/run-pytest-suite.js";

describe("integrations/tinker pytest suite", () => {
  it("passes with the official SDK and the cookbook recipes, none skipped", async () => {
    const { status, output } = await runPytestSuite("integrations/tinker", { TINKER_API_KEY: "" });
    const tail = output.slice(-6000);
    expect(status, tail).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ (failed|skipped|error)/);
  }, 600_000);
});
