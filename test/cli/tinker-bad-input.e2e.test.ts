// Bad input against a Tinker service, through the real binary and `rllm serve --tinker` (a separate process; in process
// where the test must see the run waiting on a future): a wrong
// API key, an unknown base model and a service that closes mid-future each give one line and docs/cli.md's exit code;
// a training run killed with SIGKILL resumes from its last saved state.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFaultPlan } from "../../src/tinker-server/server-faults.js";
import { startLocalTinkerServer } from "../../src/tinker-server/local-tinker-server.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import type { ChildProcess } from "node:child_process";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-tinker-bad-input-"));
const home = path.join(directory, "home");
const environment = { RLLM_HOME: home, TINKER_BASE_URL: "" };
const servers: ChildProcess[] = [];

/** Starts `rllm serve --tinker` on a free port; resolves with its URL once it listens. */
function serveTinker(args: string[], serverEnvironment: NodeJS.ProcessEnv): Promise<{ url: string; process: ChildProcess }> {
  const child = spawnCli(["serve", "--tinker", "--port", "0", ...args], { ...environment, ...serverEnvironment });
  servers.push(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
      const found = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (found) resolve({ url: found[1]!, process: child });
    });
    child.on("exit", (code) => reject(new Error(`rllm serve --tinker exited with ${code}: ${stderr}`)));
  });
}

const sft = (url: string, out: string, extra: string[] = []) => ["sft", "products", "--backend", "tinker", "--base-url", url, "--batch-size", "2", "--lr", "3e-3", "--save-every", "1", "--val-fraction", "0", "--out", out, ...extra];
const errorLines = (stderr: string) => stderr.trim().split("\n").filter((line) => line.startsWith("rllm:"));

let server: { url: string; process: ChildProcess };
beforeAll(async () => {
  const rows = [[6, 7], [3, 8], [9, 4], [5, 5]].map(([a, b], index) => ({
    id: `row-${index}`,
    messages: [{ role: "user", content: `What is ${a}*${b}?` }, { role: "assistant", content: `${a}*${b} is ${a! * b!} \\boxed{${a! * b!}}` }],
  }));
  writeFileSync(path.join(directory, "rows.jsonl"), rows.map((row) => JSON.stringify(row)).join("\n"));
  expect((await runCli(["dataset", "register", "products", "--file", path.join(directory, "rows.jsonl")], environment)).code).toBe(0);
  // With TINKER_API_KEY in its environment the server accepts that key only.
  server = await serveTinker([], { TINKER_API_KEY: "tml-the-right-key" });
}, 60_000);
afterAll(() => {
  for (const child of servers) child.kill("SIGKILL");
  rmSync(directory, { recursive: true, force: true });
});

describe("bad input against a Tinker service", () => {
  it("a wrong API key: one line naming TINKER_API_KEY, exit 1", async () => {
    const result = await runCli(sft(server.url, path.join(directory, "wrong-key")), { ...environment, TINKER_API_KEY: "tml-a-wrong-key" });
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([expect.stringMatching(/HTTP 401.*check TINKER_API_KEY/)]);
  }, 120_000);

  it("an unknown base model: one line naming --model and the served models, exit 2", async () => {
    const result = await runCli(sft(server.url, path.join(directory, "unknown-model"), ["--model", "Qwen/Qwen3-8B"]), { ...environment, TINKER_API_KEY: "tml-the-right-key" });
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual(["rllm: --model Qwen/Qwen3-8B: the Tinker service does not serve it; it serves rllm/tiny"]);
  }, 120_000);

  it("a service that closes mid-future: one line saying it was lost and how to resume, exit 1", async () => {
    // In process, so the test sees when the run is polling a future; every future answers try_again until the
    // server closes (all its connections dropped) under the waiting run.
    const stalling = await startLocalTinkerServer({ faults: parseFaultPlan("try_again=1000000"), longPollMs: 20 });
    const run = spawnCli(sft(stalling.url, path.join(directory, "lost")), { ...environment, TINKER_API_KEY: "" });
    let stderr = "";
    run.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => run.on("close", resolve));
    while (stalling.stats.requests < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    await stalling.close();
    expect(await exited).toBe(1);
    expect(errorLines(stderr)).toEqual([expect.stringMatching(/^rllm: lost the Tinker service at http:\/\/127\.0\.0\.1:\d+: \S+ got no answer after 11 attempts \(.+\); once it is back, rerun with --resume$/)]);
  }, 180_000);

  it("a run killed with SIGKILL resumes from its last saved state", async () => {
    const out = path.join(directory, "killed");
    const args = sft(server.url, out, ["--epochs", "6"]);
    const keyed = { ...environment, TINKER_API_KEY: "tml-the-right-key" };
    const run = spawnCli(args, keyed);
    const exited = new Promise((resolve) => run.on("close", resolve));
    const stateFile = path.join(out, "state.json");
    const savedStep = () => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as { step: number }).step : 0);
    while (savedStep() < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    run.kill("SIGKILL");
    await exited;
    const killedAt = savedStep();
    expect(killedAt).toBeLessThan(12);

    const resumed = await runCli([...args, "--resume"], keyed);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming after step ${killedAt}`);
    const state = JSON.parse(readFileSync(stateFile, "utf8"));
    expect(state.step).toBe(12);
    expect(state.statePath).toMatch(/^tinker:\/\/.+\/weights\/step-0012$/);
    const trainSteps = readFileSync(path.join(out, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((line) => line.kind === "train").map((line) => line.step);
    // Every step after the saved one ran once more after the kill, and the run reached its end.
    expect(trainSteps.at(-1)).toBe(12);
    expect(trainSteps.filter((step) => step > killedAt)).toEqual(Array.from({ length: 12 - killedAt }, (_, index) => killedAt + 1 + index));
  }, 300_000);
});
