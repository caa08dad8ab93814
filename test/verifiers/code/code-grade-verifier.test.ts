import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors/input-error.js";
import { codeGradeVerifier, type CodeRow } from "../../../verifiers/code/code-grade-verifier.js";
import { findExecutable } from "../../../src/sandbox/find-executable.js";
import { detectSandboxHost } from "../../../src/sandbox/local/sandbox-host.js";
import { resolvePython } from "../../../src/sandbox/local/resolve-python.js";
import { SandboxUnavailableError } from "../../../src/sandbox/sandbox-unavailable-error.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-grade-code-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const doubleTests = JSON.stringify([{ input: "21\n", output: "42\n", testtype: "stdin" }]);
const rows: CodeRow[] = [
  { id: "gold", response: "Read n, double it.\n```python\nprint(int(input()) * 2)\n```", tests: doubleTests },
  { id: "near-miss", response: "```python\nprint(int(input()) * 2 + 1)\n```", tests: doubleTests },
  { id: "bare", response: "def f(x):\n    return x + 1\n", tests: [{ input: "1", output: "2", testtype: "functional" }], fn_name: "f" },
  { id: "no-tests", response: "```python\nprint(1)\n```", tests: "[]" },
  { id: "bad-payload", response: "```python\nprint(1)\n```", tests: "{oops" },
  { id: "unknown-type", response: "```python\nprint(1)\n```", tests: [{ input: "", output: "1\n", testtype: "weird" }] },
];

describe("codeGradeVerifier", () => {
  it("gives the gold program full marks, a near miss none, and leaves an ungradable row unscored", async () => {
    const verdicts = await codeGradeVerifier.gradeRows(rows, { concurrency: 2, flags: { timeout: 3 } }, testRun.evaluatorContext());
    expect(verdicts.map((verdict) => verdict.isCorrect)).toEqual([true, false, true, false, false, false]);
    expect(verdicts.map((verdict) => verdict.value)).toEqual([1, 0, 1, 0, 0, 0]);
    expect(verdicts.map((verdict) => verdict.status)).toEqual(["scored", "scored", "scored", "unscored", "unscored", "unscored"]);
    expect(verdicts[0]!.answer).toBe("print(int(input()) * 2)\n");
    expect(verdicts[1]!.details).toMatchObject({ verdict: "wrong_answer" });
    expect(verdicts[1]!.signals).toEqual({ passedTests: 0, totalTests: 1, timedOut: 0 });
    expect(verdicts[3]!.signals.infraError).toBeUndefined();
    // A program that prints the expected output under an unknown test type is never run as stdin: the row is unscored.
    expect(verdicts[5]).toMatchObject({ status: "unscored", explanation: expect.stringContaining('unknown test type "weird"') });
  });

  it("rejects unknown flags as a usage error", async () => {
    await expect(codeGradeVerifier.gradeRows(rows.slice(0, 1), { flags: { timeuot: 3 } }, testRun.evaluatorContext())).rejects.toThrow(InputError);
  });

  it("runs from `rllm grade --verifier code` with the code flags", () => {
    const input = path.join(directory, "rows.jsonl");
    const output = path.join(directory, "verdicts.jsonl");
    writeFileSync(input, rows.slice(0, 2).map((row) => JSON.stringify(row)).join("\n") + "\n");
    const result = spawnSync(process.execPath, ["bin/rllm.js", "grade", "--verifier", "code", "--input", input, "--output", output, "--timeout", "3", "--run-all-tests"], {
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    const written = readFileSync(output, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(written.map((row) => [row.id, row.isCorrect, row.value])).toEqual([
      ["gold", true, 1],
      ["near-miss", false, 0],
    ]);
    expect(result.stdout).toContain("accuracy 50.0% (1/2 scored) | unscored 0");
  });
});

describe("sandbox refusal", () => {
  // A PATH with setpriv but no bwrap: a machine without bubblewrap.
  const searchPath = mkdtempSync(path.join(os.tmpdir(), "rllm-nobwrap-"));
  for (const name of ["setpriv"]) {
    const found = findExecutable(name);
    if (found) symlinkSync(found, path.join(searchPath, name));
  }
  afterAll(() => rmSync(searchPath, { recursive: true, force: true }));

  // What the interpreter is matters not here: the host is checked for bubblewrap and setpriv.
  const python = { executable: "/usr/bin/python3", prefix: "/usr", version: "3.11.2", sitePackages: [] };

  it("refuses to run without a sandbox and says how to fix it", () => {
    expect(() => detectSandboxHost({ searchPath, python })).toThrow(SandboxUnavailableError);
    expect(() => detectSandboxHost({ searchPath, python })).toThrow(/apt-get install -y bubblewrap.*--unsafe-no-sandbox/);
  });

  it("names a bad Python path instead of blaming bubblewrap", async () => {
    const resolved = resolvePython({ python: "/nonexistent/python3" });
    await expect(resolved).rejects.toThrow(SandboxUnavailableError);
    await expect(resolved).rejects.toThrow(/"\/nonexistent\/python3".*--python/);
    await expect(resolved).rejects.not.toThrow(/bubblewrap/);
  });

  it("names a program that is not a Python interpreter", async () => {
    await expect(resolvePython({ python: "/bin/true" })).rejects.toThrow(/"\/bin\/true" is not a Python 3 interpreter.*--python/);
  });

  it("runs unsandboxed only when --unsafe-no-sandbox is given", () => {
    expect(detectSandboxHost({ searchPath, unsafeNoSandbox: true, python }).kind).toBe("unsafe");
  });
});
