import { describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EpisodeSchema } from "../../src/core/episode.js";
import { scored, unscored } from "../../src/core/score.js";
import { appendEpisode, readEpisodes } from "../../src/runs/episode-log.js";

const episode = EpisodeSchema.parse({
  id: "t1:2",
  taskId: "t1",
  attempt: 2,
  trajectories: [
    {
      name: "solver",
      steps: [
        {
          input: [{ role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "data:image/png;base64,AA" } }] }],
          output: "\\boxed{4}",
          toolCalls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
          promptTokenIds: [1, 2, 3],
          completionTokenIds: [4, 5],
          logprobs: [-0.1, -2.5],
          usage: { promptTokens: 3, completionTokens: 2 },
          reward: 1,
          info: { note: "x" },
        },
      ],
      reward: 1,
      output: "\\boxed{4}",
      signals: { format: 1 },
    },
  ],
  target: ["4", "4.0"],
  score: scored(1.1, true, { answer: "4", explanation: "same value", signals: { tableAccess: 1 } }),
  artifacts: { answer: "4", accessedTables: ["a", "b"], nested: { deep: [1, { x: null }] } },
  signals: { tableAccess: 1 },
  terminationReason: "done",
  timings: { totalMs: 12.5 },
  usage: { promptTokens: 3, completionTokens: 2 },
});

describe("episodes.jsonl", () => {
  it("reads back an episode equal to the one written, target, score and artifacts included", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "episode-")), "episodes.jsonl");
    appendEpisode(file, episode);
    expect(readEpisodes(file)).toEqual([episode]);
  });

  it("skips a torn last line left by a crash but rejects a bad line elsewhere", async () => {
    const { appendFileSync } = await import("node:fs");
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "episode-")), "episodes.jsonl");
    appendEpisode(file, episode);
    appendFileSync(file, '{"id":"t1:3","taskId"');
    expect(readEpisodes(file)).toHaveLength(1);
    appendFileSync(file, "\n");
    appendEpisode(file, { ...episode, id: "t1:4", attempt: 4 });
    expect(() => readEpisodes(file)).toThrow(/episodes\.jsonl:2: not valid JSON/);
  });

  it("keeps the latest line when an episode is recorded twice (an infra failure retried on resume)", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "episode-")), "episodes.jsonl");
    appendEpisode(file, { ...episode, errorClass: "infra_error", score: unscored("network down") });
    appendEpisode(file, episode);
    expect(readEpisodes(file)).toEqual([episode]);
  });
});
