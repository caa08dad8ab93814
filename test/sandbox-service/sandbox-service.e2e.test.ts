// `rllm sandbox serve` as its users meet it: `rllm grade --sandbox URL,URL` against two of them gives the local verdicts,
// a service killed mid-run loses no verdict, and bad requests get clear errors. The official clients (sandbox-fusion,
// verl's reward) call it in sandbox-service.sdk.test.ts.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { sandboxServiceOrigin } from "../helpers/sandbox-service-origin.js";
import { lastUserText, startScriptedServer } from "../helpers/scripted-openai-server.js";

const folder = mkdtempSync(path.join(tmpdir(), "rllm-sandbox-service-"));
const services: ChildProcess[] = [];

/** Starts `rllm sandbox serve` on a free port and resolves with its origin once it listens. */
async function serve(flags: string[], environment: NodeJS.ProcessEnv = {}): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawnCli(["sandbox", "serve", "--port", "0", ...flags], environment);
  services.push(child);
  return { origin: await sandboxServiceOrigin(child), child };
}

// Every 8th case of the code suite: stdin, function-call and assert tests, time-outs, denied system calls.
const suite = readFileSync(new URL("../fixtures/code-dev.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .filter((_, index) => index % 8 === 0)
  .map((line) => JSON.parse(line) as { id: string; program: string; tests: unknown; fn_name?: string | null });
const rowsFile = path.join(folder, "rows.jsonl");

let first: { origin: string; child: ChildProcess };
let second: { origin: string; child: ChildProcess };

beforeAll(async () => {
  writeFileSync(rowsFile, suite.map((row) => JSON.stringify({ id: row.id, response: row.program, tests: row.tests, fn_name: row.fn_name })).join("\n") + "\n");
  [first, second] = await Promise.all([serve(["--concurrency", "2"]), serve(["--concurrency", "2"])]);
}, 600_000);

afterAll(() => {
  for (const child of services) child.kill("SIGTERM");
  rmSync(folder, { recursive: true, force: true });
});

function verdicts(file: string): { id: string; isCorrect: boolean; status: string; verdict: string }[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .map((row) => ({ id: row.id, isCorrect: row.isCorrect, status: row.status, verdict: row.details?.verdict }));
}

describe("rllm sandbox serve", () => {
  it("gives rllm grade --sandbox URL,URL, over two services, the local verdicts of every row", async () => {
    const local = await runCli(["grade", "--verifier", "code", "--input", rowsFile, "--output", path.join(folder, "local.jsonl"), "--timeout", "3"]);
    expect(local.code).toBe(0);
    const remote = await runCli(["grade", "--verifier", "code", "--input", rowsFile, "--output", path.join(folder, "remote.jsonl"), "--timeout", "3", "--sandbox", `${first.origin},${second.origin}/run_code`]);
    expect(remote.code, remote.stderr).toBe(0);
    const expected = verdicts(path.join(folder, "local.jsonl"));
    expect(expected.filter((row) => row.isCorrect).length).toBeGreaterThan(10);
    expect(expected.some((row) => row.verdict === "time_limit")).toBe(true);
    expect(verdicts(path.join(folder, "remote.jsonl"))).toEqual(expected);
  }, 600_000);

  it("loses no verdict and grades none twice when one of two services is killed mid-run", async () => {
    const [doomed, survivor] = await Promise.all([serve(["--concurrency", "2"]), serve(["--concurrency", "2"])]);
    const output = path.join(folder, "killed.jsonl");
    const grading = runCli(["grade", "--verifier", "code", "--input", rowsFile, "--output", output, "--timeout", "3", "--sandbox", `${doomed.origin},${survivor.origin}`]);
    // Kill it once it has answered some runs, so runs are in flight on it when it dies.
    for (let served = 0; served < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      served = Number(/rllm_sandbox_requests_total (\d+)/.exec(await (await fetch(`${doomed.origin}/metrics`)).text())?.[1] ?? 0);
    }
    doomed.child.kill("SIGKILL");
    const result = await grading;
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(output)).toEqual(verdicts(path.join(folder, "local.jsonl")));
    // With --output the summary line goes to stdout.
    expect(result.stdout).toMatch(/infra errors 0/);
  }, 600_000);

  // The scripted model answers each deepcoder problem with its reference solution.
  async function deepcoderModel() {
    const sample = readFileSync(new URL("../../benchmarks/deepcoder/sample.jsonl", import.meta.url), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { question: string; reference_solution: string });
    return startScriptedServer((body) => {
      const problem = sample.find((row) => lastUserText(body).includes(row.question));
      return { text: `\`\`\`python\n${problem?.reference_solution ?? "print(0)"}\n\`\`\`` };
    });
  }
  const served = async (origin: string) => Number(/rllm_sandbox_requests_total (\d+)/.exec(await (await fetch(`${origin}/metrics`)).text())?.[1] ?? 0);

  it("grades rllm eval deepcoder --sandbox URL on that service, and records the sandbox in the run's config.json", async () => {
    const model = await deepcoderModel();
    try {
      const before = await served(second.origin);
      const output = path.join(folder, "deepcoder-flag-run");
      const result = await runCli(["eval", "deepcoder", "--base-url", model.url, "--model", "scripted", "--limit", "2", "--out", output, "--sandbox", second.origin], {
        RLLM_HOME: path.join(folder, "empty-home"),
      });
      expect(result.code, result.stderr).toBe(0);
      const episodes = readFileSync(path.join(output, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
      expect(episodes.map((episode) => episode.score.value)).toEqual([1, 1]);
      expect(await served(second.origin)).toBeGreaterThan(before);
      const config = JSON.parse(readFileSync(path.join(output, "config.json"), "utf8"));
      expect(config.sandbox).toEqual({ provider: "remote", urls: [second.origin] });
      expect(config.resources).toMatchObject({ sandbox: { provider: "remote", urls: [second.origin] }, pools: { code: { sandbox: "remote" } } });
    } finally {
      await model.close();
    }
  }, 300_000);

  it("grades rllm eval deepcoder on the service that $RLLM_HOME/config.json's sandbox names", async () => {
    const home = path.join(folder, "home");
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ sandbox: first.origin }));
    const model = await deepcoderModel();
    try {
      const before = await served(first.origin);
      const output = path.join(folder, "deepcoder-run");
      const result = await runCli(["eval", "deepcoder", "--base-url", model.url, "--model", "scripted", "--limit", "2", "--out", output], { RLLM_HOME: home });
      expect(result.code, result.stderr).toBe(0);
      const episodes = readFileSync(path.join(output, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
      expect(episodes.map((episode) => episode.score.value)).toEqual([1, 1]);
      expect(await served(first.origin)).toBeGreaterThan(before);
    } finally {
      await model.close();
    }
  }, 300_000);

  it("refuses oversized code, an unknown language, files, a wrong key and work past its queue, naming what is wrong", async () => {
    const key = "test-key-123";
    const keyed = await serve(["--api-key-env", "RLLM_TEST_SANDBOX_KEY", "--max-body-mb", "0.01", "--concurrency", "1", "--queue", "0"], { RLLM_TEST_SANDBOX_KEY: key });
    const post = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
      fetch(`${keyed.origin}/run_code`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    const noKey = await post({ code: "print(1)", language: "python" }, {});
    expect(noKey.status).toBe(401);
    const oversized = await post({ code: `print(${"1".repeat(20_000)})`, language: "python" });
    expect(oversized.status).toBe(413);
    const cpp = await post({ code: "int main(){}", language: "cpp" });
    expect(cpp.status).toBe(400);
    expect(await cpp.text()).toContain('field \\"language\\": \\"cpp\\" is not run by this sandbox');
    const files = await post({ code: "print(1)", language: "python", files: { "a.txt": "aGk=" } });
    expect(files.status).toBe(400);
    // One slot, no queue: while a slow program runs, the next request is turned away with Retry-After.
    const slow = post({ code: "import time; time.sleep(3)", language: "python" });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const refused = await post({ code: "print(1)", language: "python" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await (await slow).json()).status).toBe("Success");
    const metrics = await (await fetch(`${keyed.origin}/metrics`)).text();
    expect(metrics).toMatch(/rllm_sandbox_rejected_busy_total 1/);
  }, 120_000);

  it("refuses to start when the API key's variable is not set", async () => {
    await expect(serve(["--api-key-env", "RLLM_TEST_UNSET_KEY"])).rejects.toThrow(/RLLM_TEST_UNSET_KEY/);
  }, 60_000);
});
