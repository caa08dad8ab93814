// Runs integrations/fireworks's Python suite: the official fireworks-ai SDK (1.2.30)'s TrainerJobManager, training
// client and DeploymentManager drive the Fireworks fake (training delegated to `rllm serve --tinker`), from the pinned ml
// environment (scripts/python-env.sh ml). Nothing may skip.
import { describe, expect, it } from "vitest";
import { runPytestSuite } from "../../helpers/run-pytest-suite.js";

describe("integrations/fireworks pytest suite", () => {
  it("passes with the official SDK's trainer-job manager, training client and deployment manager, none skipped", async () => {
    const { status, output } = await runPytestSuite("integrations/fireworks", { FIREWORKS_API_KEY: "" });
    const tail = output.slice(-6000);
    expect(status, tail).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ (failed|skipped|error)/);
  }, 600_000);
});
