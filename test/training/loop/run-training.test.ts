import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Cookbook } from "../../../src/core/cookbook.js";
import { InfraError } from "../../../src/core/errors/infra-error.js";
import { InfraErrorRateError } from "../../../src/training/errors/infra-error-rate-error.js";
import { runTraining } from "../../../src/training/loop/run-training.js";
import type { TrainRecord } from "../../../src/training/loop/train-records.js";
import { TrainConfigSchema } from "../../../src/training/train-config.js";
import { parityCookbook, parityTasks, recordingBackend } from "./parity-training-fixtures.js";
import { startFakeVllm } from "../../gateway/fake-vllm-server.js";
import { openRunResources } from "../../../src/sandbox/run-resources.js";

const cookbook = parityCookbook;
const tasks = parityTasks;

describe("runTraining", () => {
  it("runs steps, writes metrics and checkpoints, and resumes from the last checkpoint", async () => {
    const upstream = await startFakeVllm();
    const directory = mkdtempSync(path.join(tmpdir(), "rllm-train-"));
    const config = TrainConfigSchema.parse({
      steps: 3,
      tasksPerStep: 3,
      groupSize: 4,
      checkpointEvery: 2,
      joint: { enabled: true, pairsPerTask: 2 },
      validation: { every: 2, tasks: 2, attempts: 2, judgePairs: 1 },
      concurrency: 2,
    });
    const first = recordingBackend(upstream.baseUrl);
    const records = await runTraining({
      config, cookbook, trainTasks: tasks, testTasks: tasks, backend: first.backend, baseModel: "fake",
      directory, resume: false, signal: new AbortController().signal, resources: openRunResources(),
    });
    const kinds = records.map((record) => `${record.kind}@${record.step}`);
    expect(kinds).toEqual(["validation@0", "train@1", "train@2", "validation@2", "train@3", "validation@3"]);
    const train = records.filter((record): record is Extract<TrainRecord, { kind: "train" }> => record.kind === "train");
    // 3 tasks × 4 rollouts per step; every rollout carries the fake sampler's token ids
    expect(train[0]!.transform.trajectories).toBeGreaterThanOrEqual(12);
    expect(train[0]!.transform.droppedMissingTokenIds).toBe(0);
    expect(train[0]!.policyVersion).toBe(0);
    expect(train[1]!.policyVersion).toBe(1);
    expect(first.batches[0]!.loss.kind).toBe("ppo");
    expect(first.batches[0]!.sequences.every((sequence) => sequence.tokens.length > 0)).toBe(true);
    // The judge role is trained too, with the batch-mean baseline.
    expect(Object.keys(train[0]!.advantageByRole)).toContain("judge");
    // Validations keep per-task pass rates; later ones report their gain over step 0, paired by task.
    const validations = records.filter((record): record is Extract<TrainRecord, { kind: "validation" }> => record.kind === "validation");
    expect(validations[0]!.passAt1ByTask).toHaveLength(2);
    expect(validations[0]!.passAt1Gain).toBeNull();
    const expectedGain = validations[1]!.passAt1ByTask.reduce((sum, rate, index) => sum + rate - validations[0]!.passAt1ByTask[index]!, 0) / 2;
    expect(validations[1]!.passAt1Gain!.tasks).toBe(2);
    expect(validations[1]!.passAt1Gain!.mean).toBeCloseTo(expectedGain, 10);
    // Step 0 keeps the mixed pairs it judged; later validations judge those same pairs again.
    const startPairs = validations[0]!.startJudgePairs!;
    expect(startPairs.pairs.length).toBeGreaterThan(0);
    expect(startPairs.pairs.length).toBe(validations[0]!.judgeAccuracy!.n);
    expect(startPairs.pairs.every((pair) => pair.isCorrectA !== pair.isCorrectB)).toBe(true);
    expect(validations[0]!.judgeOnStartPairs!.gain).toBeNull();
    expect(validations[1]!.startJudgePairs).toBeUndefined();
    expect(validations[1]!.judgeOnStartPairs!.gain!.tasks).toBe(startPairs.pairs.length);
    expect(validations[1]!.judgeOnStartPairs!.accuracy.n).toBe(startPairs.pairs.length);
    const lines = readFileSync(path.join(directory, "metrics.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(6);
    expect(existsSync(path.join(directory, "steps", "0001", "episodes.jsonl"))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(directory, "state.json"), "utf8"))).toEqual({ step: 3, checkpoint: path.join("checkpoints", "step-0003"), policyVersion: 3 });

    // Resume a longer run from the step-2 checkpoint: step 3 runs again, records after step 2 are replaced.
    writeFileSync(path.join(directory, "state.json"), JSON.stringify({ step: 2, checkpoint: path.join("checkpoints", "step-0002") }));
    const second = recordingBackend(upstream.baseUrl);
    const resumed = await runTraining({
      config: { ...config, steps: 4 }, cookbook, trainTasks: tasks, testTasks: tasks, backend: second.backend, baseModel: "fake",
      directory, resume: true, signal: new AbortController().signal, resources: openRunResources(),
    });
    expect(resumed.map((record) => `${record.kind}@${record.step}`)).toEqual(["train@3", "train@4", "validation@4"]);
    expect((resumed[0] as Extract<TrainRecord, { kind: "train" }>).policyVersion).toBe(2);
    // The resumed run reads the step-0 per-task rates back from metrics.jsonl for its paired gain.
    expect((resumed[2] as Extract<TrainRecord, { kind: "validation" }>).passAt1Gain!.tasks).toBe(2);
    expect((resumed[2] as Extract<TrainRecord, { kind: "validation" }>).judgeOnStartPairs!.gain!.tasks).toBe(startPairs.pairs.length);
    const all = readFileSync(path.join(directory, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as TrainRecord);
    expect(all.map((record) => `${record.kind}@${record.step}`)).toEqual([
      "validation@0", "train@1", "train@2", "validation@2", "train@3", "train@4", "validation@4",
    ]);
    await upstream.close();
  });
  it("stops at a step whose infra-error rate passes maxInfraErrorRate instead of training on the rest, and trains below it", async () => {
    const upstream = await startFakeVllm();
    // Task t0's rollouts are infrastructure errors (its evaluator cannot run): 1 task of 3 is a third of the rollouts.
    const flaky: Cookbook = {
      ...cookbook,
      evaluate(task, episode, context) {
        if (task.id === "t0") throw new InfraError("the grader's sandbox is down");
        return cookbook.evaluate(task, episode, context);
      },
    };
    const threeTasks = tasks.slice(0, 3);
    const run = (maxInfraErrorRate: number) => {
      const { backend, batches } = recordingBackend(upstream.baseUrl);
      const config = TrainConfigSchema.parse({ steps: 1, tasksPerStep: 3, groupSize: 2, validation: { every: 100, tasks: 1 }, concurrency: 2, maxInfraErrorRate });
      const directory = mkdtempSync(path.join(tmpdir(), "rllm-train-infra-"));
      const done = runTraining({ config, cookbook: flaky, trainTasks: threeTasks, testTasks: threeTasks, backend, baseModel: "fake", directory, resume: false, signal: new AbortController().signal, resources: openRunResources() });
      return { done, batches, directory };
    };
    const stopped = run(0.05);
    await expect(stopped.done).rejects.toThrow(InfraErrorRateError);
    await expect(stopped.done).rejects.toThrow(/step 1: 2 of 6 rollouts \(33\.3%\) are infrastructure errors, above maxInfraErrorRate 0\.05.*the grader's sandbox is down/);
    expect(stopped.batches).toHaveLength(0);
    // The failures stay readable in the step's episodes.
    expect(existsSync(path.join(stopped.directory, "steps", "0001", "episodes.jsonl"))).toBe(true);
    const tolerant = run(0.5);
    await expect(tolerant.done).resolves.toBeDefined();
    expect(tolerant.batches).toHaveLength(1);
    expect(TrainConfigSchema.parse({}).maxInfraErrorRate).toBe(0.05);
    await upstream.close();
  });

  it("judges each validation pair judgeSamples times and pairs the step-0 comparison by pair", async () => {
    const upstream = await startFakeVllm();
    const directory = mkdtempSync(path.join(tmpdir(), "rllm-train-samples-"));
    const config = TrainConfigSchema.parse({
      steps: 1,
      tasksPerStep: 2,
      groupSize: 4,
      joint: { enabled: true, pairsPerTask: 1 },
      validation: { every: 1, tasks: 3, attempts: 4, judgePairs: 1, judgeSamples: 3 },
      concurrency: 2,
    });
    const { backend } = recordingBackend(upstream.baseUrl);
    const records = await runTraining({
      config, cookbook, trainTasks: tasks, testTasks: tasks, backend, baseModel: "fake",
      directory, resume: false, signal: new AbortController().signal, resources: openRunResources(),
    });
    const validations = records.filter((record): record is Extract<TrainRecord, { kind: "validation" }> => record.kind === "validation");
    const start = validations[0]!.startJudgePairs!;
    expect(start.pairs.length).toBeGreaterThan(0);
    expect(start.samplesPerPair).toBe(3);
    // Three verdicts per pair, all counted in the accuracy (clustered by task)...
    expect(start.verdicts).toHaveLength(3 * start.pairs.length);
    expect(validations[0]!.judgeAccuracy!.n).toBe(3 * start.pairs.length);
    // ...while the gain since step 0 is paired by pair, on each pair's share of right verdicts.
    expect(validations[1]!.judgeOnStartPairs!.gain!.tasks).toBe(start.pairs.length);
    expect(validations[1]!.judgeOnStartPairs!.accuracy.n).toBe(3 * start.pairs.length);
    await upstream.close();
  });
});

describe("runTraining on a failed start", () => {
  it("closes the backend it opened when the run cannot start (its learner and sampler threads would outlive the run)", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "rllm-train-failed-start-"));
    const config = TrainConfigSchema.parse({ steps: 1, tasksPerStep: 1, groupSize: 2 });
    // A backend that opens but serves no OpenAI-compatible sampler: the run refuses it after open().
    const { backend } = recordingBackend("http://127.0.0.1:9/v1");
    let closes = 0;
    const withoutSampler = { ...backend, open: async () => ({ backend: "recording", modelId: "fake", version: 0 }), close: async () => {
        closes += 1;
      },
    };
    await expect(
      runTraining({ config, cookbook, trainTasks: tasks, testTasks: tasks, backend: withoutSampler, baseModel: "fake", directory, resume: false, signal: new AbortController().signal, resources: openRunResources() }),
    ).rejects.toThrow(/serves no OpenAI-compatible sampler/);
    expect(closes).toBe(1);
  });
});
