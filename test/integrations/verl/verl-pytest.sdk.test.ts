// Runs integrations/verl's Python tests with the real verl 0.9.1, Ray and torch of the pinned ml environment
// (scripts/python-env.sh ml): conversion tensors and verl's own DataProto checks, the bridge client against a real
// batch service, the rllm grade reward, the trainer glue next to verl. Nothing may be skipped.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pythonEnv } from "../../helpers/python-env.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("integrations/verl pytest suite", () => {
  it("passes with verl imported and skips nothing", () => {
    const run = spawnSync(pythonEnv("ml"), ["-m", "pytest", "integrations/verl", "-q", "-rs", "-p", "no:cacheprovider"], {
      cwd: root,
      encoding: "utf8",
      timeout: 240_000,
      env: { ...process.env, PYTHONPATH: path.join(root, "integrations/verl") },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ (failed|skipped)/);
  }, 300_000);
});
