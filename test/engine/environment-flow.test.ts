import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Environment } from "../../src/core/environment.js";
import type { Episode } from "../../src/core/episode.js";
import { environmentFlow, type EnvironmentAgent } from "../../src/engine/environment-flow.js";
import { createRecordingLlmClient } from "../../src/testing/index.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const task = { id: "t", instruction: "count", metadata: {} };

/** A counter environment that records its calls; `stepMs` makes each step take that long. */
function counter(calls: string[], stepMs = 0): Environment<number, number> {
  let total = 0;
  return {
    async reset() {
      calls.push("reset");
      return 0;
    },
    async step(amount) {
      calls.push(`step ${amount}`);
      if (stepMs > 0) await new Promise((resolve) => setTimeout(resolve, stepMs));
      total += amount;
      return { observation: total, reward: 0, done: total >= 3, info: {} };
    },
    async finish() {
      calls.push("finish");
      return { reward: total >= 3 ? 1 : 0, isCorrect: total >= 3, info: { total } };
    },
    async close() {
      calls.push("close");
    },
  };
}

const agent: EnvironmentAgent<number, number> = {
  start: () => [{ role: "user", content: "go" }],
  decide: (choice) => (choice.text === "stop" ? { kind: "stop" } : Number.isNaN(Number(choice.text)) ? { kind: "invalid", feedback: [{ role: "user", content: "a number please" }] } : { kind: "act", actions: [Number(choice.text)] }),
  report: (results) => [{ role: "user", content: String(results.at(-1)!.step.observation) }],
};

async function run(environment: Environment<number, number>, replies: string[], maxTurns = 5, timeLimitMs?: number): Promise<Episode> {
  const flow = environmentFlow({ createEnvironment: () => environment, createAgent: () => agent, maxTurns: () => maxTurns, ...(timeLimitMs ? { timeLimitMs: () => timeLimitMs } : {}) });
  return (await flow(task, testRun.flowContext(createRecordingLlmClient({ reply: replies })))) as Episode;
}

describe("environmentFlow", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("records one step per model call and ends when the environment is done", async () => {
    const calls: string[] = [];
    const episode = await run(counter(calls), ["1", "x", "2"]);
    expect(episode.trajectories[0]!.steps.map((step) => step.info.decision)).toEqual(["act", "invalid", "act"]);
    expect(episode.terminationReason).toBe("done");
    expect(calls).toEqual(["reset", "step 1", "step 2", "finish", "close"]);
    expect(episode.artifacts.environment).toMatchObject({ reward: 1, isCorrect: true, total: 3 });
  });

  it("stops at the turn limit and still grades", async () => {
    const calls: string[] = [];
    const episode = await run(counter(calls), ["1", "1"], 2);
    expect(episode.terminationReason).toBe("max_turns");
    expect(calls.slice(-2)).toEqual(["finish", "close"]);
    expect(episode.artifacts.environment).toMatchObject({ reward: 0 });
  });

  it("ends a run past its time limit as a timeout and grades the partial work", async () => {
    const calls: string[] = [];
    const running = run(counter(calls, 10_000), ["1", "2"], 5, 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    const episode = await running;
    expect(episode.terminationReason).toBe("timeout");
    expect(calls).toEqual(["reset", "step 1", "finish", "close"]);
  });

  it("closes the environment when the model call fails", async () => {
    const calls: string[] = [];
    await expect(run(counter(calls), [])).rejects.toThrow(/no scripted reply/);
    expect(calls).toEqual(["reset", "close"]);
  });
});
