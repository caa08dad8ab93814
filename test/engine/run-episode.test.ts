import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Cookbook, FlowContext } from "../../src/core/cookbook.js";
import { scored, unscored } from "../../src/core/score.js";
import type { LlmClient } from "../../src/core/llm-client.js";
import { EpisodeCancelledError, runEpisode } from "../../src/engine/run-episode.js";
import { openRunResources } from "../../src/sandbox/run-resources.js";

const resources = openRunResources();

const task = { id: "t1", instruction: "2+2?", metadata: {} };
const client: LlmClient = { model: "none", chat: () => Promise.reject(new Error("not called")) };

/** A cookbook whose flow is `flow`, graded correct whenever it produces output "4". */
function cookbookWith(flow: (context: FlowContext) => Promise<unknown>): Cookbook {
  return {
    name: "test",
    description: "test",
    flow: async (_, context) => {
      const output = await flow(context);
      return { name: "solver", steps: [], reward: null, output, signals: {}, info: {} };
    },
    evaluate: (_, episode) => {
      const isCorrect = episode.trajectories[0]?.output === "4";
      return scored(isCorrect ? 1 : 0, isCorrect);
    },
  };
}

const never = () => new Promise<never>(() => undefined);

describe("runEpisode", () => {
  // The episode's time limit is a timer: fake timers fire it when the test says, never because the machine was slow.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("scores a flow that finishes in time", async () => {
    const episode = await runEpisode(task, 0, { cookbook: cookbookWith(async () => "4"), client, sampling: {}, timeoutMs: 1000, runSignal: new AbortController().signal, resources });
    expect(episode).toMatchObject({ id: "t1:0", score: { value: 1, isCorrect: true, status: "scored" }, terminationReason: "done", error: null });
  });

  it("records the task's ground truth as the episode's target", async () => {
    const withTarget = { ...task, metadata: { ground_truth: "4" } };
    const episode = await runEpisode(withTarget, 0, { cookbook: cookbookWith(async () => "4"), client, sampling: {}, timeoutMs: 1000, runSignal: new AbortController().signal, resources });
    expect(episode.target).toBe("4");
  });

  it("keeps an unscored episode's trajectories without a reward, so training leaves them out", async () => {
    const cookbook = { ...cookbookWith(async () => "4"), evaluate: () => unscored("no gold answer") };
    const episode = await runEpisode(task, 0, { cookbook, client, sampling: {}, timeoutMs: 1000, runSignal: new AbortController().signal, resources });
    expect(episode.score).toMatchObject({ status: "unscored", explanation: "no gold answer" });
    expect(episode.trajectories[0]!.reward).toBeNull();
  });

  it("keeps the grade of a flow that stopped its agent at the task's own time limit and graded the partial work", async () => {
    const cookbook: Cookbook = {
      ...cookbookWith(async () => "4"),
      flow: async (_, context) => ({ id: "", taskId: task.id, attempt: context.attempt, trajectories: [{ name: "solver", steps: [], reward: null, output: "4", signals: {}, info: {} }], score: unscored("not yet"), artifacts: {}, signals: {}, terminationReason: "timeout", timings: {}, usage: { promptTokens: 0, completionTokens: 0 }, errorClass: null, error: null }),
    };
    const episode = await runEpisode(task, 0, { cookbook, client, sampling: {}, timeoutMs: 1000, runSignal: new AbortController().signal, resources });
    expect(episode).toMatchObject({ terminationReason: "timeout", score: { value: 1, isCorrect: true, status: "scored" } });
  });

  it("records a timeout as a wrong answer, even for a flow that ignores its signal, and aborts that signal", async () => {
    let seen: AbortSignal | undefined;
    const cookbook = cookbookWith((context) => {
      seen = context.signal;
      return never();
    });
    const running = runEpisode(task, 0, { cookbook, client, sampling: {}, timeoutMs: 30, runSignal: new AbortController().signal, resources });
    await vi.advanceTimersByTimeAsync(29);
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const episode = await running;
    expect(episode).toMatchObject({ terminationReason: "timeout", error: "episode exceeded 30 ms", score: { value: 0, isCorrect: false, status: "scored" }, errorClass: null });
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toMatchObject({ name: "TimeoutError" });
  });

  it("throws EpisodeCancelledError when the run is cancelled mid-flow, passing the run's reason to the flow", async () => {
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    const cookbook = cookbookWith((context) => {
      seen = context.signal;
      return never();
    });
    const running = runEpisode(task, 0, { cookbook, client, sampling: {}, timeoutMs: 60_000, runSignal: run.signal, resources });
    const outcome = expect(running).rejects.toBeInstanceOf(EpisodeCancelledError);
    await vi.advanceTimersByTimeAsync(20);
    run.abort(new Error("ctrl-c"));
    await outcome;
    expect(seen?.reason).toMatchObject({ message: "ctrl-c" });
  });

  it("throws EpisodeCancelledError for a run cancelled before the episode starts", async () => {
    const run = new AbortController();
    run.abort();
    const episode = runEpisode(task, 0, { cookbook: cookbookWith(async () => "4"), client, sampling: {}, timeoutMs: 1000, runSignal: run.signal, resources });
    await expect(episode).rejects.toBeInstanceOf(EpisodeCancelledError);
  });

  it("leaves no listener on the run signal once its episodes end", async () => {
    const run = new AbortController();
    const episodes = Array.from({ length: 50 }, (_, index) =>
      runEpisode({ ...task, id: `t${index}` }, 0, { cookbook: cookbookWith(async () => "4"), client, sampling: {}, timeoutMs: 1000, runSignal: run.signal, resources }),
    );
    expect(getEventListeners(run.signal, "abort")).toHaveLength(50);
    await Promise.all(episodes);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});
