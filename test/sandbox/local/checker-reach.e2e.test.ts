// Issue #29's code attack end to end, through `rllm grade --verifier code`: a wrong program that joins the trusted
// checker's process group and signals it must be graded 0 with the sandbox's reason, never counted as an infra error.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-checker-reach-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const attack = [
  "import os",
  "import signal",
  "signal.signal(signal.SIGTERM, signal.SIG_IGN)",
  "for group in range(1, 64):",
  "    if group == os.getpid():",
  "        continue",
  "    try:",
  "        os.setpgid(0, group)",
  "    except OSError:",
  "        continue",
  "    os.kill(0, signal.SIGTERM)",
  "",
  "def add(a, b):",
  "    return a - b",
  "",
].join("\n");
const rows = [
  { id: "assert-tests", response: `\`\`\`python\n${attack}\`\`\``, tests: [{ testtype: "assert", code: "assert add(1, 2) == 3\n" }] },
  { id: "function-call-tests", response: `\`\`\`python\n${attack}\`\`\``, tests: [{ testtype: "functional", input: "1\n2", output: "3" }], fn_name: "add" },
];

describe("rllm grade --verifier code against a program that signals the trusted checker", () => {
  it("scores both rows 0 with the seccomp reason and reports no infra error", () => {
    const input = path.join(directory, "rows.jsonl");
    const output = path.join(directory, "verdicts.jsonl");
    writeFileSync(input, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
    const result = spawnSync(process.execPath, ["bin/rllm.js", "grade", "--verifier", "code", "--input", input, "--output", output, "--timeout", "3"], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const written = readFileSync(output, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(written.map((row) => [row.id, row.status, row.value])).toEqual([
      ["assert-tests", "scored", 0],
      ["function-call-tests", "scored", 0],
    ]);
    for (const row of written) expect(row.explanation).toContain("denied by sandbox policy: seccomp filter");
    expect(result.stdout).toContain("accuracy 0.0% (0/2 scored) | unscored 0 | timed out 0 | infra errors 0");
  });
});
