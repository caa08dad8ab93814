// The remote code grader against hosts with limits and faults of their own (fake SandboxFusion hosts in their own
// processes, and the real `rllm sandbox serve`), with no local sandbox to fall back on: a host's limit or fault never
// scores the program (issue #44). What the host could run is graded there, split to fit its limits; what no host
// could run is an infrastructure error naming each host's reason.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { normalizeTests } from "../../../../verifiers/code/normalize-tests.js";
import { RemoteProgramHosts } from "../../../../src/sandbox/remote/remote-programs.js";
import { RemoteCodeGrader } from "../../../../verifiers/code/remote/remote-code-grader.js";
import { runCli, spawnCli } from "../../../helpers/run-cli.js";
import { sandboxServiceOrigin } from "../../../helpers/sandbox-service-origin.js";
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
const sixtyCalls = normalizeTests(
  Array.from({ length: 60 }, (_, index) => ({ testtype: "functional", input: `${index}\n${index + 1}`, output: String(2 * index + 1) })),
  "add",
);
const grader = (url: string) => new RemoteCodeGrader(new RemoteProgramHosts([{ url }], { concurrency: 1 }), { timeoutSeconds: 6, runAllTests: false });

describe("remote grading with no local sandbox", () => {
  it("splits a problem whose whole-problem guard is over rllm sandbox serve's run_timeout limit, refused once, then sized by its stated limit", async () => {
    const child = spawnCli(["sandbox", "serve", "--port", "0", "--concurrency", "1"]);
    processes.push(child);
    const origin = await sandboxServiceOrigin(child);
    const remote = grader(origin);
    const verdicts = [await remote.grade({ program: add, ...sixtyCalls }), await remote.grade({ program: add, ...sixtyCalls })];
    expect(verdicts.map((verdict) => [verdict.verdict, verdict.passedTests])).toEqual([
      ["accepted", 60],
      ["accepted", 60],
    ]);
    // The first run (425 s) was refused; the service stated its limit (300 s) with the refusal, so no other was.
    const metrics = await (await fetch(`${origin}/metrics`)).text();
    expect(metrics).toMatch(/rllm_sandbox_rejected_invalid_total 1\n/);
  }, 120_000);

  it("makes a right program that no host can take (a 2 MiB input, nginx's 1 MiB body limit) an infrastructure error naming the 413, never a 0", async () => {
    const url = await fakeHost({ maxBodyBytes: 1024 * 1024 });
    const { tests } = normalizeTests([{ testtype: "stdin", input: `${"a".repeat(2 * 1024 * 1024)}\n`, output: `${2 * 1024 * 1024}\n` }], undefined);
    const verdict = await grader(url).grade({ program: "print(len(input()))\n", tests });
    expect(verdict).toMatchObject({ verdict: "infra_error", passed: false });
    expect(verdict.detail).toContain("HTTP 413");
    expect(verdict.detail).toContain("no local sandbox to grade it instead");
  }, 60_000);

  it("makes a run a host answers with HTTP 500 (its control passing) an infrastructure error, never a 0", async () => {
    const url = await fakeHost({ failRealRuns: "500" });
    const verdict = await grader(url).grade({ program: add, ...normalizeTests([{ testtype: "functional", input: "1\n2", output: "3" }], "add") });
    expect(verdict).toMatchObject({ verdict: "infra_error" });
    expect(verdict.detail).toMatch(/HTTP 500.*its control run passed/);
  }, 60_000);

  it("gives no pass for result lines a host forges under the fixed marker every run used before", async () => {
    const url = await fakeHost({ forgeStdout: "\u0000rllm-result\u00000 v 3\n" });
    const verdict = await grader(url).grade({ program: "def add(a, b):\n    return 0\n", ...normalizeTests([{ testtype: "functional", input: "1\n2", output: "3" }], "add") });
    expect(verdict.passed).toBe(false);
  }, 60_000);
});

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
      JSON.stringify({ sandbox: { provider: "remote", urls: [{ url: first, apiKeyEnv: "FIRST_SANDBOX_KEY" }, { url: second, apiKeyEnv: "SECOND_SANDBOX_KEY" }] } }),
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
