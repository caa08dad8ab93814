// `rllm train arith --backend verl` end to end against a fake verl trainer speaking the bridge protocol and a fake vLLM:
// several steps, solver and judge rows with their masks, logprobs and advantages, checkpoints, a resume after the
// job restarted, and a refusal of what verl cannot honour (a batch that differs from the job's actor: verl-backend.e2e).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeRow, TrainerSettings } from "../../../../src/training/backends/verl/verl-bridge-protocol.js";
import { runCli } from "../../../helpers/run-cli.js";
import { startFakeArithVllm, type FakeArithVllm } from "./fake-arith-vllm.js";
import { runFakeTrainer } from "./fake-verl-trainer.js";

const directory = mkdtempSync(path.join(tmpdir(), "rllm-verl-train-"));
const config = {
  steps: 3,
  tasksPerStep: 2,
  groupSize: 4,
  sampling: { temperature: 1, topP: 1, maxTokens: 16 },
  loss: { kind: "ppo", clipLow: 0.2, clipHigh: 0.28 },
  lossAggregation: "token-mean",
  optimizer: { learningRate: 0.0002, gradClipNorm: 1 },
  advantages: { estimator: "grpo" },
  joint: { enabled: true, pairsPerTask: 2, weight: 0.5 },
  validation: { every: 10, tasks: 2, attempts: 1 },
  checkpointEvery: 2,
  concurrency: 4,
};
// What a job launched with `rllm verl launch --train-config` for this config reports.
const settings: TrainerSettings = {
  lossMode: "vanilla",
  clipRatioLow: 0.2,
  clipRatioHigh: 0.28,
  lossAggMode: "token-mean",
  useKlLoss: false,
  klLossCoef: 0.001,
  learningRate: 0.0002,
  weightDecay: 0,
  gradClip: 1,
  ppoEpochs: 1,
  clipRatioC: 1e9,
};
const token = "bridge-secret";
let vllm: FakeArithVllm;

function writeConfig(name: string, changes: Record<string, unknown>): string {
  const file = path.join(directory, name);
  writeFileSync(file, JSON.stringify({ ...config, ...changes }));
  return file;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type TrainerSetup = { settings?: TrainerSettings; globalStep?: number; dieAtTrainItem?: number };

/** Runs `rllm train arith --backend verl` beside fake trainers, each started when the one before died; resolves with all outcomes. */
async function trainWithFakeTrainers(args: string[], setups: TrainerSetup[] = [{}]) {
  const port = await freePort();
  const abort = new AbortController();
  const trainers = (async () => {
    const runs = [];
    for (const setup of setups) {
      runs.push(
        await runFakeTrainer(
          { bridgeUrl: `http://127.0.0.1:${port}`, token, serverAddress: vllm.address, settings: setup.settings ?? settings, globalStep: setup.globalStep ?? 0, dieAtTrainItem: setup.dieAtTrainItem },
          abort.signal,
        ),
      );
    }
    return runs;
  })();
  const cli = await runCli(["train", "arith", "--backend", "verl", ...args], { RLLM_VERL_BRIDGE_PORT: String(port), RLLM_VERL_BRIDGE_TOKEN: token });
  abort.abort();
  return { cli, trainers: await trainers };
}

beforeAll(async () => {
  vllm = await startFakeArithVllm();
});
afterAll(async () => {
  await vllm.close();
});

describe("rllm train --backend verl", () => {
  const out = path.join(directory, "run");

  it("trains several steps, sending solver and judge rows with masks, logprobs and advantages to the trainer", async () => {
    const { cli, trainers } = await trainWithFakeTrainers(["--config", writeConfig("train.json", {}), "--out", out]);
    expect(cli.code, cli.stderr).toBe(0);
    const trainer = trainers[0]!;
    expect(trainer.items.map((item) => item.kind)).toEqual(["train", "train", "checkpoint", "train", "checkpoint", "stop"]);
    expect(trainer.batches).toHaveLength(3);

    const records = readFileSync(path.join(out, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(records.filter((record) => record.kind === "train").map((record) => record.update.loss)).toEqual([0.1, 0.2, 0.30000000000000004]);

    for (const rows of trainer.batches) {
      const roles = new Set(rows.map((row) => row.role));
      expect(roles).toEqual(new Set(["solver", "judge"]));
      for (const row of rows) {
        // One call per trajectory: the prompt untrained, the two sampled tokens trained with vLLM's logprobs.
        expect(row.lossMask).toEqual([...Array(row.promptLength).fill(0), 1, 1]);
        expect(row.samplerLogprobs.slice(row.promptLength)).toEqual([-0.5, -0.25]);
        expect(row.groupKey.endsWith(`:${row.role}`)).toBe(true);
      }
      expectGrpoSolverAdvantages(rows.filter((row) => row.role === "solver"));
      // The judge's REINFORCE advantage (reward minus the batch mean) carries λ = 0.5.
      const judges = rows.filter((row) => row.role === "judge");
      const meanReward = judges.reduce((sum, row) => sum + row.reward, 0) / judges.length;
      for (const row of judges) expect(row.advantage).toBeCloseTo(0.5 * (row.reward - meanReward), 9);
    }
    // Every rollout went through the gateway and the router, asking for token ids and logprobs.
    expect(vllm.requests.every((request) => request.return_token_ids === true && request.logprobs === true)).toBe(true);
    const checkpoint = JSON.parse(readFileSync(path.join(out, "checkpoints", "step-0003", "verl-checkpoint.json"), "utf8"));
    expect(checkpoint).toEqual({ globalStep: 3, verlPath: "/verl/checkpoints/global_step_3", policyVersion: 3 });
  });

  it("fails the step when a preempted job restarts without its updates, and --resume has it load the last checkpoint", async () => {
    const preempted = path.join(directory, "preempted");
    const file = writeConfig("train.json", {});
    // The job dies during step 3; its replacement comes up at step 0 (its checkpoints were on the lost node).
    const first = await trainWithFakeTrainers(["--config", file, "--out", preempted], [{ dieAtTrainItem: 3 }, { globalStep: 0 }]);
    expect(first.cli.code).toBe(1);
    expect(first.cli.stderr).toContain("the verl job restarted at global step 0, but the run had reached step 2");
    expect(first.cli.stderr).toContain("--resume");

    const resumed = await trainWithFakeTrainers(["--config", file, "--out", preempted, "--resume"], [{ globalStep: 0 }]);
    expect(resumed.cli.code, resumed.cli.stderr).toBe(0);
    const trainer = resumed.trainers[0]!;
    expect(trainer.items.map((item) => item.kind)).toEqual(["restore", "train", "checkpoint", "stop"]);
    expect(trainer.items[0]).toMatchObject({ kind: "restore", path: "/verl/checkpoints/global_step_2" });
    expect(trainer.globalStep).toBe(3);
  });

  it("trains asynchronously only with partial rollouts, every step's groups stamped with the version the router saw", async () => {
    const refused = await runCli(["train", "arith", "--backend", "verl", "--config", writeConfig("async.json", {}), "--out", path.join(directory, "async-refused"), "--async"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Backend "verl" cannot honour --async without --partial-rollouts (async.partialRollouts) "false"`);
    const run = path.join(directory, "async");
    const { cli, trainers } = await trainWithFakeTrainers(["--config", writeConfig("async.json", {}), "--out", run, "--async", "--partial-rollouts"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(trainers[0]!.batches).toHaveLength(3);
    const records = readFileSync(path.join(run, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((record) => record.kind === "train");
    for (const record of records) {
      expect(record.staleness.max).toBeLessThanOrEqual(1);
      for (const group of record.groups) expect(group.versions[1]).toBeLessThanOrEqual(record.policyVersion);
    }
    // The fake vLLM sends no weight_version: the router stamped each reply with the version its servers held.
    const episodes = readFileSync(path.join(run, "steps", "0002", "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(episodes.every((episode) => episode.trajectories.every((trajectory: { steps: { info: { weightVersion?: number } }[] }) => trajectory.steps.every((step) => typeof step.info.weightVersion === "number")))).toBe(true);
  });

  // The other refusals (substeps, optimizer betas and epsilon, sum aggregation) are unit tests of the capabilities.
  it("refuses a config key verl cannot honour before any work, naming the key and the backend", async () => {
    const cli = await runCli(["train", "arith", "--backend", "verl", "--config", writeConfig("refused.json", { loss: { kind: "importance_sampling" } }), "--out", path.join(directory, "refused")]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`refused.json: Backend "verl" cannot honour loss "importance_sampling". Supported: ppo, gspo, cispo, clip_cov, kl_cov, geo_mean, dro.`);
  });
});

// GRPO within each task's group: (r − mean) / (std + ε), so a group's advantages sum to 0 and follow the rewards.
function expectGrpoSolverAdvantages(rows: BridgeRow[]): void {
  const groups = new Map<string, BridgeRow[]>();
  for (const row of rows) groups.set(row.groupKey, [...(groups.get(row.groupKey) ?? []), row]);
  for (const members of groups.values()) {
    expect(Math.abs(members.reduce((sum, row) => sum + row.advantage, 0))).toBeLessThan(1e-9);
    const mean = members.reduce((sum, row) => sum + row.reward, 0) / members.length;
    for (const row of members) expect(Math.sign(row.advantage)).toBe(Math.sign(row.reward - mean));
  }
}
