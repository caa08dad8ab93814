// The remote code grader against fake SandboxFusion hosts in their own processes: each service gets only the API key
// that belongs to it (issue #44).
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../../helpers/run-cli.js";
import { startFakeSandboxHost } from "../../../helpers/start-fake-sandbox-host.js";

const folder = mkdtempSync(path.join(tmpdir(), "rllm-remote-grader-"));
const processes: ChildProcess[] = [];

afterAll(() => {
  for (const child of processes) child.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

async function fakeHost(behaviour: Record<string, unknown>): Promise<string> {
  const host = await startFakeSandboxHost(behaviour);
  processes.push(host.child);
  return host.url;
}

const add = "def add(a, b):\n    return a + b\n";

describe("rllm grade --verifier code with per-service keys in config.json", () => {
  it("sends each service only the key config.json names for it", async () => {
    const keysFiles = [path.join(folder, "first-keys.txt"), path.join(folder, "second-keys.txt")];
    const first = await fakeHost({ apiKey: "first-key", keysFile: keysFiles[0] });
    const second = await fakeHost({ apiKey: "second-key", keysFile: keysFiles[1] });
    const home = path.join(folder, "home");
    const rows = path.join(folder, "rows.jsonl");
    const row = { response: add, tests: [{ testtype: "functional", input: "1\n2", output: "3" }], fn_name: "add" };
    writeFileSync(rows, `${Array.from({ length: 6 }, (_, index) => JSON.stringify({ ...row, id: index })).join("\n")}\n`);
    mkdirSync(home, { recursive: true });
    writeFileSync(
      path.join(home, "config.json"),
      JSON.stringify({ sandbox: { urls: [{ url: first, apiKeyEnv: "FIRST_SANDBOX_KEY" }, { url: second, apiKeyEnv: "SECOND_SANDBOX_KEY" }] } }),
    );
    const result = await runCli(["grade", "--verifier", "code", "--input", rows, "--concurrency", "2"], {
      RLLM_HOME: home,
      FIRST_SANDBOX_KEY: "first-key",
      SECOND_SANDBOX_KEY: "second-key",
      RLLM_SANDBOX_API_KEY: "shared-key",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/accuracy 100\.0% \(6\/6 scored\)/);
    const received = keysFiles.map((file) => new Set(readFileSync(file, "utf8").trim().split("\n")));
    expect(received).toEqual([new Set(["first-key"]), new Set(["second-key"])]);
  }, 120_000);
});
