// The pinned sandbox environment (integrations/python/sandbox.txt): a local sandbox finds it by itself, a correct
// solution that imports numpy passes under it, and the record names the interpreter and the packages' versions. The
// same solution under an interpreter without numpy (a bare venv of the same Python, as pyenv's python3 on a fresh
// machine) scores 0, and the record says numpy is missing: the verdict's dependence on the host is visible.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalSandbox } from "../../../src/sandbox/local/local-sandbox.js";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { pythonEnv } from "../../helpers/python-env.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "rllm-pinned-python-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const program = "import numpy as np\nprint(int(np.array([int(x) for x in input().split()]).sum()))\n";
const tests = [{ kind: "stdin" as const, input: "1 2 3\n", output: "6\n" }];

/** Grades `program` in a fresh local sandbox resolving its interpreter with `python` (undefined: the run's own resolution). */
async function gradeWith(python: string | undefined) {
  const sandbox = createLocalSandbox({ provider: "local", ...(python !== undefined ? { python } : {}) });
  const programs = await sandbox.openPrograms({ concurrency: 1 });
  if (programs.kind !== "local") throw new Error("the local sandbox opened no local slots");
  try {
    const verdict = await new CodeGrader(programs).grade({ program, tests });
    return { verdict, record: sandbox.record() };
  } finally {
    await programs.close();
  }
}

let bare: string;
beforeAll(() => {
  const pinned = pythonEnv("sandbox");
  // A venv of the pinned environment's own interpreter, without its packages.
  const base = spawnSync(pinned, ["-c", "import sys; print(sys._base_executable)"], { encoding: "utf8" }).stdout.trim();
  const venv = path.join(scratch, "bare");
  const made = spawnSync(base, ["-m", "venv", "--without-pip", venv], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`cannot make a bare venv: ${made.stderr}`);
  bare = path.join(venv, "bin", "python");
}, 1_800_000);

describe("the pinned sandbox environment", () => {
  it("is found without being named, runs a numpy solution, and is recorded with its packages' versions", async () => {
    const { verdict, record } = await gradeWith(undefined);
    expect(verdict.verdict, verdict.detail).toBe("accepted");
    expect(record.python).toMatchObject({ source: "the pinned sandbox environment (sandbox.txt)", packages: { numpy: "2.5.5", sortedcontainers: "2.4.0" } });
    expect(record.python?.version).toMatch(/^3\.12\./);
  }, 120_000);

  it("an interpreter without numpy fails the same solution, and its record says numpy is missing", async () => {
    const { verdict, record } = await gradeWith(bare);
    expect(verdict.verdict).toBe("runtime_error");
    expect(verdict.detail).toMatch(/No module named 'numpy'/);
    expect(record.python).toMatchObject({ source: "--python", packages: { numpy: null, sortedcontainers: null } });
  }, 120_000);
});
