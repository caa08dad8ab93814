import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EpisodeSchema, type Episode } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import { startGateway, type Gateway } from "../../../src/gateway/gateway-server.js";
import { judgeRollouts } from "../../../src/training/loop/judge-rollouts.js";
import { createRng } from "../../../src/core/random.js";
import { startFakeVllm, type FakeVllm } from "../../gateway/fake-vllm-server.js";

let upstream: FakeVllm;
let gateway: Gateway;
beforeAll(async () => {
  upstream = await startFakeVllm();
  gateway = await startGateway({ upstream: upstream.baseUrl, model: "policy", sampling: { temperature: 1, maxTokens: 16 } });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const task: Task = { id: "t1", instruction: "What is 2+2?", metadata: {} };
/** Four solver episodes of `task`, the first correct. */
const solverEpisodes: Episode[] = [0, 1, 2, 3].map((attempt) =>
  EpisodeSchema.parse({
    id: `t1:${attempt}`,
    taskId: "t1",
    attempt,
    reward: attempt === 0 ? 1 : 0,
    isCorrect: attempt === 0,
    trajectories: [{ name: "solver", reward: attempt === 0 ? 1 : 0, output: `\\boxed{${4 + attempt}}`, steps: [] }],
  }),
);

describe("judgeRollouts", () => {
  it("judges each drawn pair samplesPerPair times, as distinct traced judge episodes after the solver attempts", async () => {
    const result = await judgeRollouts([task], solverEpisodes, {
      gateway,
      model: "policy",
      sampling: { temperature: 1, maxTokens: 16 },
      judgeKind: "math",
      pairsPerTask: 1,
      samplesPerPair: 3,
      concurrency: 2,
      random: createRng(5),
      seed: 11,
      signal: new AbortController().signal,
      sessionPrefix: "test",
    });
    expect(result.episodes.map((episode) => episode.attempt).sort()).toEqual([4, 5, 6]);
    // The same pair, in the same slots, three times: a group of verdicts on one prompt.
    const judged = result.episodes.map((episode) => JSON.stringify(episode.artifacts.judgedAttempts));
    expect(new Set(judged).size).toBe(1);
    expect(JSON.parse(judged[0]!)).toContain(0);
    // Every call is traced through the gateway with its token ids ("reply n" does not parse: reward 0).
    for (const episode of result.episodes) {
      expect(episode.trajectories[0]!.name).toBe("judge");
      expect(episode.trajectories[0]!.steps[0]!.completionTokenIds!.length).toBeGreaterThan(0);
      expect(episode.score.value).toBe(0);
    }
    expect(result.parseErrors).toBe(3);
  });
});
