/**
 * agent_code.py, the helper through which the bundled tasks' graders run the agent's code (issue #44): checked as the
 * verifier runs it, in the real bwrap sandbox as uid 1000, where the agent's code is the same user as the grader.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packagePath } from "../../../src/core/package-root.js";
import { createBwrapEnvironment } from "../../../src/sandbox/local/bwrap-environment.js";
import type { SandboxEnvironment } from "../../../src/core/sandbox-environment.js";

const tasks = packagePath("benchmarks/terminal-sample/tasks");
const copies = ["python-bugfix", "executable-script", "fix-shell-script"].map((task) => path.join(tasks, task, "tests", "agent_code.py"));

let sandbox: SandboxEnvironment;
beforeAll(async () => {
  sandbox = createBwrapEnvironment({ memoryMb: 512 });
  await sandbox.upload(copies[0]!, "/tests/agent_code.py");
});
afterAll(() => sandbox.close());

/** Runs `body` in python3 as the verifier, with agent_code importable; its stdout. */
async function grader(body: string): Promise<string> {
  const script = `import os, sys\nsys.path.insert(0, "/tests")\nfrom agent_code import *\nfrom agent_code import _descendants\n${body}`;
  const result = await sandbox.exec(`python3 -I -c '${script.replaceAll("'", "'\\''")}'`, { role: "verifier", timeoutMs: 30_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe("agent_code.py", () => {
  it("is one file, the same in every bundled task that runs the agent's code", () => {
    const [first, ...others] = copies.map((file) => readFileSync(file, "utf8"));
    for (const other of others) expect(other).toBe(first);
  });

  it("keeps the agent's code, the same user, out of the grader's memory, environment and descriptors", async () => {
    const probe = `import os\nfor name in ("mem", "environ", "fd"):\n    try:\n        (os.listdir if name == "fd" else open)(f"/proc/{os.getppid()}/{name}")\n        print(name, "opened")\n    except OSError:\n        print(name, "denied")`;
    const output = await grader(`run = run_agent_code(["python3", "-c", ${JSON.stringify(probe)}])\nprint(run.stdout)`);
    expect(output.split("\n")).toEqual(["mem denied", "environ denied", "fd denied"]);
  }, 60_000);

  it("kills what the agent's code leaves running, setsid daemons and double forks included", async () => {
    const output = await grader(
      `run = run_agent_code(["sh", "-c", "setsid sleep 300 & (sleep 300 &) ; (setsid sh -c \\"sleep 300 &\\" &) ; echo started"])\nprint(run.stdout.strip(), len(_descendants()))`,
    );
    expect(output).toBe("started 0");
  }, 60_000);

  it.skipIf(process.getuid?.() !== 0)("runs the agent's code as nobody when the grader is root (Harbor's and docker's verifier)", () => {
    const script = `import sys\nsys.path.insert(0, ${JSON.stringify(path.dirname(copies[0]!))})\nfrom agent_code import run_agent_code\nrun = run_agent_code(["sh", "-c", "id -u; id -G; test -w /root && echo writable || echo denied"])\nprint(run.stdout.strip().replace("\\n", " "))`;
    const result = spawnSync("python3", ["-I", "-c", script], { encoding: "utf8" });
    expect(result.stdout.trim()).toBe("65534 65534 denied");
  });

  it("stops a run at its time limit and keeps 1 MiB of a flood of output", async () => {
    const output = await grader(
      `slow = run_agent_code(["sleep", "30"], timeout=0.5)\nflood = run_agent_code(["head", "-c", "5000000", "/dev/zero"])\nprint(slow.timed_out, slow.exit_code, len(flood.stdout), flood.exit_code)`,
    );
    expect(output).toBe(`True None ${1 << 20} 0`);
  }, 60_000);
});
