// `rllm train --backend fireworks` through the real binary against integrations/fireworks/fake_fireworks.py (a separate
// Python process that judges every request with the official fireworks-ai SDK's types), training delegated to the
// local Tinker emulator: the loss moves and the deployment serves each published version; a wrong API key, an
// unknown base model and a service that closes mid-future each give one line and docs/cli.md's exit code; a run killed
// with SIGKILL resumes from its last saved state. The real Fireworks service is never reached.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFaultPlan } from "../../src/tinker-server/server-faults.js";
import { startLocalTinkerServer, type LocalTinkerServer } from "../../src/tinker-server/local-tinker-server.js";
import { pythonEnv } from "../helpers/python-env.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";

const FAKE = fileURLToPath(new URL("../../integrations/fireworks/fake_fireworks.py", import.meta.url));
const MODEL = "accounts/fireworks/models/rllm-tiny";
const KEY = "fw-the-right-key";
const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-fireworks-"));
const environment = { RLLM_HOME: path.join(directory, "home"), FIREWORKS_BASE_URL: "" };
const children: ChildProcess[] = [];
const servers: LocalTinkerServer[] = [];

/** Starts the fake in front of a Tinker emulator; resolves with its URL once it listens. */
async function startFake(tinker: LocalTinkerServer): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(pythonEnv("ml"), [FAKE, "--tinker-url", tinker.url, "--api-key", KEY, "--models", MODEL], { stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
      const found = /fake fireworks at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (found) resolve({ url: found[1]!, process: child });
    });
    child.on("exit", (code) => reject(new Error(`fake_fireworks.py exited with ${code}: ${stderr}`)));
  });
}

/** What the fake has left: trainer jobs by state, deployments. */
async function fakeState(url: string): Promise<{ jobs: Record<string, string>; deployments: string[]; requests: string[] }> {
  return (await fetch(`${url}/fake/state`)).json() as Promise<{ jobs: Record<string, string>; deployments: string[]; requests: string[] }>;
}

// cross_entropy on the policy's own samples with every group kept: the tiny model's arith rewards are all 0, so an
// advantage-weighted loss would not train, while this one fits the samples and its loss falls.
const config = {
  steps: 4,
  tasksPerStep: 2,
  groupSize: 2,
  sampling: { maxTokens: 8 },
  validation: { tasks: 2, every: 4 },
  checkpointEvery: 1,
  concurrency: 4,
  loss: { kind: "cross_entropy" },
  transform: { merge: "prefix", minGroupSize: 2, dropUniformGroups: false },
  optimizer: { learningRate: 0.01 },
};
const configFile = path.join(directory, "train.json");
const train = (url: string, out: string, extra: string[] = []) => ["train", "arith", "--backend", "fireworks", "--base-url", url, "--model", MODEL, "--config", configFile, "--out", out, ...extra];
const errorLines = (stderr: string) => stderr.trim().split("\n").filter((line) => line.startsWith("rllm:") && !line.startsWith("rllm: Fireworks:"));
const trainRecords = (out: string) =>
  readFileSync(path.join(out, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((record) => record.kind === "train") as {
    step: number;
    update: { loss: number; logprobMismatchMean: number } | null;
  }[];

let fake: { url: string; process: ChildProcess };
beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify(config));
  const tinker = await startLocalTinkerServer();
  servers.push(tinker);
  fake = await startFake(tinker);
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const server of servers) await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("rllm train --backend fireworks against the fake", () => {
  it("trains: the loss falls, the deployment samples the hot-loaded weights, and the job and deployment are deleted", async () => {
    const out = path.join(directory, "run");
    const result = await runCli(train(fake.url, out), { ...environment, FIREWORKS_API_KEY: KEY });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Fireworks: trainer job rllm-ts-[0-9a-f]{8} is JOB_STATE_PENDING/);
    const records = trainRecords(out);
    expect(records.map((record) => record.step)).toEqual([1, 2, 3, 4]);
    expect(records.at(-1)!.update!.loss).toBeLessThan(records[0]!.update!.loss);
    // After each publish the rollouts come from the deployment: had it kept serving the base weights, the trained
    // learner's logprobs of those samples would differ by far more than rounding.
    for (const record of records.slice(1)) expect(record.update!.logprobMismatchMean).toBeLessThan(1e-3);
    const state = await fakeState(fake.url);
    expect(state.jobs).toEqual({});
    expect(state.deployments).toEqual([]);
    expect(state.requests.filter((request) => request.startsWith("POST /hot_load/")).length).toBe(4);
    // The key went only where the SDK sends it: never printed.
    expect(result.stderr + result.stdout).not.toContain(KEY);
  }, 300_000);

  it("fine-tunes with rllm sft: the rows tokenized with the tokenizer the gateway names, the loss falls", async () => {
    const rows = [[6, 7], [3, 8], [9, 4], [5, 5]].map(([a, b], index) => ({
      id: `row-${index}`,
      messages: [{ role: "user", content: `What is ${a}*${b}?` }, { role: "assistant", content: `${a}*${b} is ${a! * b!} \\boxed{${a! * b!}}` }],
    }));
    writeFileSync(path.join(directory, "rows.jsonl"), rows.map((row) => JSON.stringify(row)).join("\n"));
    expect((await runCli(["dataset", "register", "products", "--file", path.join(directory, "rows.jsonl")], environment)).code).toBe(0);
    const out = path.join(directory, "sft");
    const args = ["sft", "products", "--backend", "fireworks", "--base-url", fake.url, "--model", MODEL, "--batch-size", "2", "--lr", "3e-3", "--save-every", "3", "--val-fraction", "0", "--epochs", "3", "--out", out];
    const result = await runCli(args, { ...environment, FIREWORKS_API_KEY: KEY });
    expect(result.code, result.stderr).toBe(0);
    const losses = readFileSync(path.join(out, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((record) => record.kind === "train").map((record) => record.loss as number);
    expect(losses).toHaveLength(6);
    expect(losses.at(-1)!).toBeLessThan(losses[0]! / 2);
    expect((await fakeState(fake.url)).jobs).toEqual({});
  }, 300_000);

  it("a wrong API key: one line naming FIREWORKS_API_KEY, exit 1", async () => {
    const result = await runCli(train(fake.url, path.join(directory, "wrong-key")), { ...environment, FIREWORKS_API_KEY: "fw-a-wrong-key" });
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([expect.stringMatching(/^rllm: Fireworks refused the API key on \/v1\/accounts\?pageSize=2 \(HTTP 401: invalid API key\): check FIREWORKS_API_KEY$/)]);
  }, 120_000);

  it("an unknown base model: one line naming --model and what the account can train, exit 2", async () => {
    const args = train(fake.url, path.join(directory, "unknown-model")).map((arg) => (arg === MODEL ? "accounts/fireworks/models/qwen3-8b" : arg));
    const result = await runCli(args, { ...environment, FIREWORKS_API_KEY: KEY });
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual([
      `rllm: --model accounts/fireworks/models/qwen3-8b: Fireworks refused the trainer job: field "trainingConfig.baseModel": model "accounts/fireworks/models/qwen3-8b" not found; this account can train ${MODEL}`,
    ]);
  }, 120_000);

  it("a run killed with SIGKILL resumes from its last saved state and deletes the killed run's job", async () => {
    const out = path.join(directory, "killed");
    const keyed = { ...environment, FIREWORKS_API_KEY: KEY };
    const run = spawnCli(train(fake.url, out), keyed);
    const exited = new Promise((resolve) => run.on("close", resolve));
    const stateFile = path.join(out, "state.json");
    const savedStep = () => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as { step: number }).step : 0);
    while (savedStep() < 2 && run.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    run.kill("SIGKILL");
    await exited;
    const killedAt = savedStep();
    expect(killedAt).toBeLessThan(4);
    // SIGKILL ran no cleanup: the killed run's job and deployment are still there.
    expect(Object.keys((await fakeState(fake.url)).jobs)).toHaveLength(1);

    const resumed = await runCli([...train(fake.url, out), "--resume"], keyed);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Fireworks: deleting trainer job rllm-ts-[0-9a-f]{8} and deployment rllm-ts-rollout-[0-9a-f]{8}, left by the run that saved step-/);
    expect(JSON.parse(readFileSync(stateFile, "utf8")).step).toBe(4);
    const steps = trainRecords(out).map((record) => record.step);
    // Every step after the saved one ran once more after the kill, and the run reached its end.
    expect(steps.filter((step) => step > killedAt)).toEqual(Array.from({ length: 4 - killedAt }, (_, index) => killedAt + 1 + index));
    const state = await fakeState(fake.url);
    expect(state.jobs).toEqual({});
    expect(state.deployments).toEqual([]);
  }, 300_000);

  it("Ctrl-C stops after the current step and still deletes the job and the deployment", async () => {
    const out = path.join(directory, "interrupted");
    const run = spawnCli(train(fake.url, out), { ...environment, FIREWORKS_API_KEY: KEY });
    const exited = new Promise<number | null>((resolve) => run.on("close", resolve));
    const stateFile = path.join(out, "state.json");
    while (!existsSync(stateFile) && run.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Object.keys((await fakeState(fake.url)).jobs)).toHaveLength(1);
    run.kill("SIGINT");
    await exited;
    expect(JSON.parse(readFileSync(stateFile, "utf8")).step).toBeLessThan(4);
    const state = await fakeState(fake.url);
    expect(state.jobs).toEqual({});
    expect(state.deployments).toEqual([]);
  }, 300_000);

  it("a service that closes mid-future: one line saying it was lost and how to resume, exit 1", async () => {
    // Every future of this emulator answers try_again, so the run is polling one through the gateway when the fake
    // process is killed under it.
    const stalling = await startLocalTinkerServer({ faults: parseFaultPlan("try_again=1000000"), longPollMs: 20 });
    servers.push(stalling);
    const closing = await startFake(stalling);
    const run = spawnCli(train(closing.url, path.join(directory, "lost")), { ...environment, FIREWORKS_API_KEY: KEY });
    let stderr = "";
    run.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => run.on("close", resolve));
    while (stalling.stats.requests < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    closing.process.kill("SIGKILL");
    expect(await exited).toBe(1);
    expect(errorLines(stderr)).toEqual([
      expect.stringMatching(/^rllm: lost the Fireworks service at http:\/\/127\.0\.0\.1:\d+\/training\/v1\/rlorTrainerJobs\/rllm-fake\/rllm-ts-[0-9a-f]{8}: retrieve_future got no answer after 11 attempts \(.+\); once it is back, rerun with --resume$/),
    ]);
    // What it could not delete with the service gone is said once, naming the job (it keeps billing).
    expect(stderr).toMatch(/rllm: Fireworks: could not delete deployment rllm-ts-rollout-[0-9a-f]{8} and trainer job rllm-ts-[0-9a-f]{8} \(.+\); delete them in the Fireworks console/);
  }, 300_000);
});
