// `rllm verl launch | status | logs | stop` and `rllm train --backend verl` against a real Ray 2.60 head on this
// machine (test/helpers/ray-head.ts) through the real Jobs API: the job is the bridge's own entry point
// (python3 -m rllm_verl.main) in its CPU mode, with verl 0.9.1 composing the launch's Hydra overrides, and it connects
// back to the batch service of a real `rllm train`. Rollouts go to the fake vLLM (no GPU here). At the end the head is
// stopped and none of its processes may be left.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonEnv } from "../../../helpers/python-env.js";
import { freePort, startRayHead, type RayHead } from "../../../helpers/ray-head.js";
import { runCli, spawnCli } from "../../../helpers/run-cli.js";
import { startFakeArithVllm, type FakeArithVllm } from "./fake-arith-vllm.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const directory = mkdtempSync(path.join(tmpdir(), "rllm-ray-"));
const token = "ray-bridge-secret";
const config = {
  steps: 2,
  tasksPerStep: 2,
  groupSize: 2,
  sampling: { temperature: 1, topP: 1, maxTokens: 16 },
  loss: { kind: "ppo", clipLow: 0.2, clipHigh: 0.28 },
  lossAggregation: "token-mean",
  optimizer: { learningRate: 0.0002, gradClipNorm: 1 },
  advantages: { estimator: "grpo" },
  validation: { every: 10, tasks: 1, attempts: 1 },
  checkpointEvery: 10,
  concurrency: 2,
};
let head: RayHead;
let vllm: FakeArithVllm;

beforeAll(async () => {
  // The job drivers inherit the head's environment: the ml venv's python3 first on PATH, rllm_verl on PYTHONPATH.
  head = await startRayHead(pythonEnv("ml"), { PYTHONPATH: path.join(root, "integrations/verl") });
  vllm = await startFakeArithVllm();
}, 300_000);

afterAll(async () => {
  await vllm?.close();
  if (head) expect(await head.stop(), "processes of the Ray cluster still running").toEqual([]);
}, 60_000);

/** `rllm verl launch` of the CPU mode against `bridgeUrl`, plus any extra Hydra overrides; resolves with the CLI run. */
function launch(bridgeUrl: string, extra: string[], flags: string[] = []) {
  const overrides = ["+rllm.mode=cpu", `+rllm.server_addresses=['${vllm.address}']`, ...extra].flatMap((override) => ["--set", override]);
  return runCli(["verl", "launch", "--address", head.dashboard, "--bridge-url", bridgeUrl, "--bridge-token", token, "--model", "Qwen/Qwen3-0.6B", ...overrides, ...flags]);
}

describe("rllm verl on a real Ray cluster", () => {
  it("rllm train --backend verl trains two steps with a Ray job launched, followed and ended through the Jobs API", async () => {
    const port = await freePort();
    const file = path.join(directory, "train.json");
    writeFileSync(file, JSON.stringify(config));
    const out = path.join(directory, "run");
    const training = runCli(["train", "arith", "--backend", "verl", "--config", file, "--out", out], {
      RLLM_VERL_BRIDGE_PORT: String(port),
      RLLM_VERL_BRIDGE_TOKEN: token,
      RLLM_VERL_REGISTER_TIMEOUT: "300",
      RAY_ADDRESS: head.dashboard,
    });
    const launched = await launch(`http://127.0.0.1:${port}`, [], ["--train-config", file]);
    expect(launched.code, launched.stderr).toBe(0);
    const jobId = launched.stdout.trim();
    expect(jobId).toMatch(/^raysubmit_/);

    const status = await runCli(["verl", "status", jobId, "--address", head.dashboard]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^${jobId} (PENDING|RUNNING|SUCCEEDED)`));

    // Follows the log until the job ends: rllm train sends a stop when its two steps are done, and the job SUCCEEDS.
    const logs = await runCli(["verl", "logs", jobId, "--follow", "--poll", "2", "--address", head.dashboard]);
    const trained = await training;
    expect(trained.code, trained.stderr).toBe(0);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toContain("rllm_verl: cpu mode registered");
    expect(logs.stdout).toContain("rllm_verl: step 2:");
    expect(logs.stdout).toContain("rllm_verl: stop received");

    // rllm train said what it waited for: the job, the cluster, the registered trainer.
    expect(trained.stderr).toContain(`verl: trainer registered: the verl trainer (Ray job ${jobId} on ${head.dashboard}, global step 0), verl 0.9.1`);
    expect(trained.stderr).toMatch(/verl: step 1: \d+ rows sent to the verl trainer/);
    const updates = readFileSync(path.join(out, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((record) => record.kind === "train");
    expect(updates).toHaveLength(2);
    // verl's vanilla loss at ratio 1 is minus the token-mean advantage: finite, and the sampler's logprobs are the learner's.
    for (const update of updates) {
      expect(Number.isFinite(update.update.loss)).toBe(true);
      expect(update.update.logprobMismatchMean).toBe(0);
    }
    const final = await runCli(["verl", "status", jobId, "--address", head.dashboard]);
    expect(final.stdout).toContain(`${jobId} SUCCEEDED`);
  }, 480_000);

  it("stops a running job, and reports a job that fails at start in one line", async () => {
    // No batch service answers at this address: the CPU mode keeps retrying its registration, so the job runs until stopped.
    const unanswered = `http://127.0.0.1:${await freePort()}`;
    const [waiting, failing] = await Promise.all([
      launch(unanswered, ["+rllm.give_up_after=600"]),
      launch(unanswered, ["actor_rollout_ref.actor.no_such_key=1"], ["--follow", "--poll", "2"]),
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("no_such_key");
    expect(failing.stderr.trim().split("\n").at(-1)).toMatch(/^rllm: job raysubmit_\w+ FAILED$/);

    const jobId = waiting.stdout.trim();
    expect(waiting.code, waiting.stderr).toBe(0);
    for (let running = false; !running; ) {
      const status = await runCli(["verl", "status", jobId, "--address", head.dashboard]);
      running = status.stdout.includes("RUNNING");
      if (!running) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const stopped = await runCli(["verl", "stop", jobId, "--address", head.dashboard]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout.trim()).toBe(`${jobId} stopping`);
    const ended = await runCli(["verl", "status", jobId, "--wait", "--poll", "1", "--address", head.dashboard]);
    expect(ended.code).toBe(1);
    expect(ended.stdout).toContain(`${jobId} STOPPED`);
  }, 300_000);

  it("rllm train --backend verl fails the step with the job's status when its Ray job is stopped mid-run", async () => {
    const port = await freePort();
    const file = path.join(directory, "train-stopped.json");
    writeFileSync(file, JSON.stringify({ ...config, steps: 50 }));
    const child = spawnCli(["train", "arith", "--backend", "verl", "--config", file, "--out", path.join(directory, "stopped")], {
      RLLM_VERL_BRIDGE_PORT: String(port),
      RLLM_VERL_BRIDGE_TOKEN: token,
      RLLM_VERL_REGISTER_TIMEOUT: "300",
      RAY_ADDRESS: head.dashboard,
    });
    let stderr = "";
    const registered = new Promise<void>((resolve) =>
      child.stderr!.on("data", (chunk) => {
        stderr += chunk;
        if (stderr.includes("verl: trainer registered")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const launched = await launch(`http://127.0.0.1:${port}`, [], ["--train-config", file]);
    const jobId = launched.stdout.trim();
    await registered;
    const stopped = await runCli(["verl", "stop", jobId, "--address", head.dashboard]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(await exited).toBe(1);
    expect(stderr).toContain(`the Ray job ${jobId} on ${head.dashboard} is STOPPED`);
    expect(stderr).toContain(`rllm verl logs ${jobId} --address ${head.dashboard}`);
  }, 300_000);
});
