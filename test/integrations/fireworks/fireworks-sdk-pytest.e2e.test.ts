// Runs integrations/fireworks's Python suite: the official fireworks-ai SDK (1.2.30)'s TrainerJobManager, training
// client and DeploymentManager drive the Fireworks fake (training delegated to `rllm serve --tinker`), from the pinned ml
// environment (scripts/python-env.sh ml). Nothing may skip.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pythonEnv } from "../../helpers/python-env.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

// Async, not spawnSync: the suite's servers are child processes, and this process must not block on them.
function runPytest(python: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(python, ["-m", "pytest", "integrations/fireworks", "-q", "-rs", "-p", "no:cacheprovider", "-W", "ignore::FutureWarning"], {
    cwd: root,
    env: { ...process.env, FIREWORKS_API_KEY: "" },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, output })));
}

describe("integrations/fireworks pytest suite", () => {
  it("passes with the official SDK's trainer-job manager, training client and deployment manager, none skipped", async () => {
    const { status, output } = await runPytest(pythonEnv("ml"));
    const tail = output.slice(-6000);
    expect(status, tail).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ (failed|skipped|error)/);
  }, 600_000);
});
