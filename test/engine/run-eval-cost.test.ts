import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Cookbook } from "../../src/core/cookbook.js";
import type { ChatResponse } from "../../src/core/llm-client.js";
import { scored } from "../../src/core/score.js";
import type { Task } from "../../src/core/task.js";
import { openRunDirectory, type RunPaths } from "../../src/runs/run-directory.js";
import { runEval, type EvalRunOptions } from "../../src/engine/run-eval.js";
import { singleTurnFlow } from "../../src/engine/single-turn-flow.js";
import { createRecordingLlmClient } from "../../src/testing/recording-llm-client.js";
import { openRunResources } from "../../src/sandbox/run-resources.js";

const tasks: Task[] = Array.from({ length: 6 }, (_, index) => ({ id: `t${index}`, instruction: `q${index}`, metadata: {} }));
const cookbook: Cookbook = {
  name: "priced",
  description: "one call per episode",
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction }]),
  evaluate: () => scored(1, true),
};
// Every call: 100 prompt tokens (40 of them from the provider's prompt cache) and 20 completion tokens.
const reply: ChatResponse = { choices: [{ text: "a", toolCalls: [], finishReason: "stop" }], usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 40 }, model: "m" };
// Per million tokens. One call: 60·2 + 40·1 + 20·10 = 360 → $0.00036; six episodes → $0.00216.
const price = { input: 2, cachedInput: 1, output: 10 };
const perEpisode = 0.00036;

const freshRun = (): RunPaths => openRunDirectory(path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-cost-")), "run"), { benchmark: "priced" }, false);
function options(paths: RunPaths, overrides: Partial<EvalRunOptions> = {}): EvalRunOptions {
  return {
    tasks,
    cookbook,
    client: createRecordingLlmClient({ reply: () => reply }),
    sampling: {},
    attempts: 1,
    concurrency: 1,
    timeoutMs: 60_000,
    paths,
    resources: openRunResources(),
    signal: new AbortController().signal,
    price,
    ...overrides,
  };
}

describe("run cost", () => {
  it("sums the hand-computed cost per episode, per role and in total", async () => {
    const result = await runEval(options(freshRun()));
    expect(result.summary.cost?.total).toBeCloseTo(6 * perEpisode, 12);
    expect(result.summary.cost?.perEpisode).toBeCloseTo(perEpisode, 12);
    expect(result.summary.cost?.byRole.solver).toBeCloseTo(6 * perEpisode, 12);
    expect(result.summary.cost?.cachedCalls).toBe(0);
  });

  it("stops at --max-cost before the next episode would pass it, and resumes to the uninterrupted total", async () => {
    const paths = freshRun();
    // After three episodes ($0.00108) a fourth would bring the spend to $0.00144, past $0.0012.
    const stopped = await runEval(options(paths, { maxCost: 0.0012 }));
    expect(stopped.ran).toBe(3);
    expect(stopped.status).toBe("incomplete");
    expect(stopped.unfinished.join("\n")).toMatch(/3 episodes not started: --max-cost 0.0012 reached/);
    expect(stopped.summary.cost?.total).toBeLessThanOrEqual(0.0012);

    const resumed = await runEval(options(paths));
    expect(resumed.ran).toBe(3);
    expect(resumed.status).toBe("complete");
    const uninterrupted = await runEval(options(freshRun()));
    expect(resumed.summary.cost).toEqual(uninterrupted.summary.cost);
  });

  it("keeps episodes with cached calls out of the latency and out of the cost", async () => {
    const client = createRecordingLlmClient({ reply: (_request, index) => ({ ...reply, ...(index % 2 === 0 ? { cached: true } : {}) }) });
    const result = await runEval(options(freshRun(), { client }));
    expect(result.summary.cache).toEqual({ cachedCalls: 3, episodesWithCachedCalls: 3 });
    expect(result.summary.cost?.total).toBeCloseTo(3 * perEpisode, 12);
    expect(result.summary.cost?.savedByCache).toBeCloseTo(3 * perEpisode, 12);
    expect(result.episodes.filter((episode) => episode.trajectories[0]?.steps[0]?.cached === true)).toHaveLength(3);
  });
});
