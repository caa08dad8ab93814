// Runs integrations/verl's Python tests (CI runs only npm test): conversion tensors, the bridge client against a real
// batch service, the rllm grade reward. Needs python3 with torch and pytest (Debian: python3-torch, python3-pytest).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

// The first interpreter that has both; a pyenv python3 first on PATH often lacks Debian's dist-packages.
function pythonWithTorchAndPytest(): string | undefined {
  const candidates = [process.env.RLLM_PYTHON, "python3", "/usr/bin/python3"].filter((candidate): candidate is string => Boolean(candidate));
  return candidates.find((candidate) => spawnSync(candidate, ["-c", "import torch, pytest"], { stdio: "ignore" }).status === 0);
}

describe("integrations/verl pytest suite", () => {
  it("passes on CPU", () => {
    const python = pythonWithTorchAndPytest();
    if (!python) {
      throw new Error("no python3 with torch and pytest: install Debian's python3-torch and python3-pytest (.ci/run does), or set RLLM_PYTHON");
    }
    const run = spawnSync(python, ["-m", "pytest", "integrations/verl", "-q", "-p", "no:cacheprovider"], { cwd: root, encoding: "utf8", timeout: 240_000 });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/\d+ failed/);
  }, 300_000);
});
