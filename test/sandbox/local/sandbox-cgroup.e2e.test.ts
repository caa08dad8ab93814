// The per-sandbox cgroup caps: processes that together exceed the memory cap are OOM-killed, and the pids cap stops
// process creation. Run with a trusted script (the seccomp filter would stop the forks of a sandboxed program first).
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import type { LocalProgramSlots } from "../../../src/sandbox/local/local-programs.js";
import { createSandboxCgroups } from "../../../src/sandbox/local/sandbox-cgroup.js";

const mebibyte = 1024 ** 2;
const cgroups = createSandboxCgroups(1, { memoryBytes: 96 * mebibyte, processes: 8 });
afterAll(() => {
  if (cgroups.slots) cgroups.remove();
});

/** Runs a Python script inside the slot's cgroups, joined the way sandbox slots join them. */
function runInCgroup(script: string): { status: number | null; stdout: string } {
  const join = 'for file in $RLLM_CGROUP_PROCS; do echo $$ > "$file" || exit 97; done; exec "$@"';
  const result = spawnSync("/bin/sh", ["-c", join, "rllm-test", "python3", "-c", script], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", RLLM_CGROUP_PROCS: cgroups.slots![0]!.procsFiles.join(" ") },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout };
}

describe.skipIf(!cgroups.slots)("per-sandbox cgroups (root, cgroup v1 or v2 with memory and pids)", () => {
  it("OOM-kills children that together hold more than the sandbox's memory cap, though each stays under it", () => {
    const before = cgroups.slots![0]!.oomKills();
    // Four children of 40 MiB each: 160 MiB together against a 96 MiB cap; an RLIMIT_AS of 96 MiB would allow each.
    const script = `
import os, time
children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(40 * 1024 * 1024)
        for offset in range(0, len(block), 4096):
            block[offset] = 1
        time.sleep(2)
        os._exit(0)
    children.append(pid)
killed = sum(1 for pid in children if os.WIFSIGNALED(os.waitpid(pid, 0)[1]))
print(killed)
`;
    const result = runInCgroup(script);
    expect(Number(result.stdout.trim())).toBeGreaterThan(0);
    expect(cgroups.slots![0]!.oomKills()).toBeGreaterThan(before);
  });

  it("refuses processes past the sandbox's pids cap", () => {
    const script = `
import os, time
started = 0
for _ in range(20):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(1)
        os._exit(0)
    started += 1
print(started)
`;
    // The cap counts the shell-started interpreter too: at most 7 children.
    expect(Number(runInCgroup(script).stdout.trim())).toBeLessThan(8);
  });
});

describe.skipIf(!cgroups.slots)("a program past the sandbox's memory cap", () => {
  it("fails with a reason naming the memory policy", async () => {
    // Files in the scratch tmpfs are memory no RLIMIT_AS sees; 320 MiB of them against a 160 MiB sandbox cap.
    const grader = await CodeGrader.create({ timeoutSeconds: 10, concurrency: 1, limits: { memoryBytes: 160 * mebibyte, scratchBytes: 1024 * mebibyte } });
    try {
      const program = "for index in range(32):\n    open('/tmp/block%d' % index, 'wb').write(b'x' * (10 * 1024 * 1024))\nprint(1)\n";
      const verdict = await grader.grade({ program, tests: [{ kind: "stdin", input: "", output: "1\n" }] });
      expect(verdict.passed).toBe(false);
      expect(verdict.verdict, verdict.detail).toBe("memory_limit");
      expect(verdict.detail).toContain("memory policy");
      expect((grader.programs as LocalProgramSlots).memoryPolicy).toMatch(/^cgroup v[12]: each sandbox capped at 160 MiB/);
    } finally {
      await grader.close();
    }
  });
});
