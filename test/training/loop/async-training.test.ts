// The async loop against a backend that serves several policy versions at once (versioned-fake-backend.ts): rollouts
// go on while updates run, each call is sampled by the version its episode started on (or, with partial rollouts,
// the newest at the call), and every step records the versions that sampled its groups and how stale they were.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Cookbook } from "../../../src/core/cookbook.js";
import { scored } from "../../../src/core/score.js";
import type { Task } from "../../../src/core/task.js";
import { stepFromChat } from "../../../src/llm/step-from-chat.js";
import { openRunResources } from "../../../src/sandbox/run-resources.js";
import { runTraining } from "../../../src/training/loop/run-training.js";
import type { TrainRecord, TrainStepRecord } from "../../../src/training/loop/train-records.js";
import { TrainConfigSchema } from "../../../src/training/train-config.js";
import { startVersionedFakeBackend, type VersionedFakeBackend } from "./versioned-fake-backend.js";

const tasks: Task[] = Array.from({ length: 8 }, (_, index) => ({ id: `t${index}`, instruction: `What is ${index}+1?`, metadata: {} }));
const evaluate: Cookbook["evaluate"] = (_task, episode) => {
  const number = Number(/reply (\d+)/.exec(episode.trajectories[0]!.steps.at(-1)!.output)?.[1]);
  return scored(number % 2 === 0 ? 1 : 0, number % 2 === 0);
};
const oneCall: Cookbook = {
  name: "one-call",
  description: "test cookbook",
  async flow(task, context) {
    const request = { messages: [{ role: "user" as const, content: String(task.instruction) }], ...context.sampling, signal: context.signal };
    const step = stepFromChat(request, await context.client.chat(request));
    return { name: "solver", steps: [step], reward: null, output: step.output, signals: {}, info: {} };
  },
  evaluate,
};

/**
 * Two calls; between them an episode waits for the policy to move on (or 1 s). With four episodes at a time, step 2's
 * episodes start as step 1's end, before the first update, and their second calls come after it.
 */
function twoCalls(fake: VersionedFakeBackend): Cookbook {
  return {
    name: "two-calls",
    description: "test cookbook",
    async flow(task, context) {
      const ask = async (content: string) => {
        const request = { messages: [{ role: "user" as const, content }], ...context.sampling, signal: context.signal };
        return stepFromChat(request, await context.client.chat(request));
      };
      const first = await ask(String(task.instruction));
      await Promise.race([fake.reached(fake.version() + 1), new Promise((resolve) => setTimeout(resolve, 1000))]);
      const second = await ask(`${task.instruction} again`);
      return { name: "solver", steps: [first, second], reward: null, output: second.output, signals: {}, info: {} };
    },
    evaluate,
  };
}

let fake: VersionedFakeBackend | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function train(cookbook: Cookbook | ((fake: VersionedFakeBackend) => Cookbook), config: Record<string, unknown>, backendOptions: Parameters<typeof startVersionedFakeBackend>[0] = {}) {
  fake = await startVersionedFakeBackend(backendOptions);
  const parsed = TrainConfigSchema.parse({ tasksPerStep: 2, groupSize: 2, validation: { every: 100, tasks: 1 }, concurrency: 16, ...config });
  const records = await runTraining({
    config: parsed,
    cookbook: typeof cookbook === "function" ? cookbook(fake) : cookbook,
    trainTasks: tasks,
    testTasks: tasks,
    backend: fake.backend,
    baseModel: "fake",
    directory: mkdtempSync(path.join(tmpdir(), "rllm-async-")),
    resume: false,
    signal: new AbortController().signal,
    resources: openRunResources(),
  });
  return { records: records.filter((record): record is TrainStepRecord => record.kind === "train"), all: records as TrainRecord[], fake };
}

describe("asynchronous training", () => {
  it("samples while each update runs, pins every episode to the version it started on, and records versions and staleness", async () => {
    // The first three updates end only after a rollout request came in during them, which a synchronous loop never
    // sends (the last has no later rollouts left). Two episodes at a time, 50 ms each: a step's rollouts outlast the
    // moment its batch is ready.
    const { records, fake } = await train(oneCall, { steps: 4, concurrency: 2, async: { maxStaleness: 1 } }, { holdUpdates: 3, replyDelayMs: 50 });
    expect(records.map((record) => record.step)).toEqual([1, 2, 3, 4]);
    expect(records.map((record) => record.policyVersion)).toEqual([0, 1, 2, 3]);
    // Every rollout asked for a pinned version and got it.
    // Every rollout asked for a pinned version and got it (validations, between updates, ask for the newest).
    const rollouts = fake.requests.filter((request) => request.model !== "fake");
    expect(rollouts.length).toBeGreaterThanOrEqual(4 * 2 * 2);
    expect(fake.requests.length - rollouts.length).toBe(2); // one validation episode before training and one after
    for (const request of rollouts) expect(request.model).toBe(`fake@v${request.version}`);
    for (const record of records) {
      expect(record.staleness.max).toBeLessThanOrEqual(1);
      for (const group of record.groups) {
        expect(group.versions[0]).toBeLessThanOrEqual(record.policyVersion);
        expect(record.policyVersion - group.versions[0]).toBeLessThanOrEqual(1);
      }
      // The histogram counts the batch's groups by staleness.
      expect(Object.values(record.staleness.histogram).reduce((sum, count) => sum + count, 0)).toBe(record.groups.length);
    }
    // Rollouts ran ahead: some step trained groups sampled by the version before its own.
    expect(records.some((record) => record.staleness.max === 1)).toBe(true);
    // Each row sent to the backend carries the version that sampled it.
    expect(fake.batches[1]!.sequences.every((sequence) => sequence.policyVersion !== undefined && sequence.policyVersion <= 1)).toBe(true);
  });

  it("with maxStaleness 0 is the synchronous loop: plain model names, every group sampled by the trainer's own version", async () => {
    const { records, fake } = await train(oneCall, { steps: 3 });
    expect(fake.requests.every((request) => request.model === "fake")).toBe(true);
    for (const record of records) {
      expect(record.staleness).toMatchObject({ mean: 0, max: 0, droppedGroups: 0 });
      expect(record.groups.every((group) => group.slot === record.step && group.versions[0] === record.policyVersion && group.versions[1] === record.policyVersion)).toBe(true);
    }
  });

  it("keeps an episode in flight across an update on the version it started on", async () => {
    const { records, fake } = await train(twoCalls, { steps: 2, concurrency: 4, async: { maxStaleness: 1 } });
    const crossed = records.flatMap((record) => record.groups).filter((group) => group.slot === 2);
    expect(crossed.length).toBeGreaterThan(0);
    for (const group of crossed) expect(group.versions).toEqual([0, 0]);
    expect(fake.requests.filter((request) => request.model === "fake@v0").length).toBeGreaterThanOrEqual(8);
  });

  it("with partial rollouts, lets an episode's later calls take the new weights, each call keeping its own version", async () => {
    // The update takes 300 ms, so step 2's first calls (made as step 1's episodes end) reach the sampler before it.
    const { records, fake } = await train(twoCalls, { steps: 2, concurrency: 4, async: { maxStaleness: 1, partialRollouts: true } }, { updateDelayMs: 300 });
    const crossed = records.flatMap((record) => record.groups).filter((group) => group.slot === 2);
    expect(crossed.length).toBeGreaterThan(0);
    for (const group of crossed) expect(group.versions).toEqual([0, 1]);
    // No call is pinned: each one asks for the newest version.
    expect(fake.requests.every((request) => request.model === "fake")).toBe(true);
    // Its staleness counts from its oldest call.
    const second = records.find((record) => record.groups.some((group) => group.slot === 2))!;
    expect(second.staleness.oldestVersion).toBe(0);
  });
});
