import { describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../../src/core/episode.js";
import { scored } from "../../../src/core/score.js";
import { transformEpisodes } from "../../../src/training/transforms/index.js";
import { scoredEpisode, tokenStep } from "./fixtures.js";

const good = (taskId: string, attempt: number, reward: number) =>
  scoredEpisode(taskId, attempt, reward, [tokenStep([1, 2], [3, 4])]);

describe("grouping", () => {
  it("groups by <taskId>:<trajectoryName>, so solver and judge of one task are separate groups", () => {
    const episode = EpisodeSchema.parse({
      id: "t1:0",
      taskId: "t1",
      attempt: 0,
      trajectories: [
        { name: "solver", reward: 1, steps: [tokenStep([1], [2])] },
        { name: "judge", reward: 0.5, steps: [tokenStep([5], [6])] },
      ],
    });
    const second = EpisodeSchema.parse({ ...episode, id: "t1:1", attempt: 1 });
    const { groups } = transformEpisodes([episode, second]);
    expect(groups.map((group) => group.key).sort()).toEqual(["t1:judge", "t1:solver"]);
    expect(groups.find((group) => group.role === "judge")!.members.map((member) => member.reward)).toEqual([0.5, 0.5]);
  });
});

describe("drop accounting", () => {
  it("drops the trajectory with missing token ids, keeps the rest of its group and counts the drop", () => {
    const episodes = [
      good("t1", 0, 1),
      good("t1", 1, 0),
      scoredEpisode("t1", 2, 1, [tokenStep([1, 2], [3]), tokenStep(undefined, undefined)]),
    ];
    const { groups, metrics } = transformEpisodes(episodes);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.members.map((member) => member.episodeId)).toEqual(["t1:0", "t1:1"]);
    expect(metrics.droppedMissingTokenIds).toBe(1);
    expect(metrics.keptTrajectories).toBe(2);
  });

  it("counts every kind of drop separately", () => {
    const episodes = [
      good("full", 0, 1),
      good("full", 1, 0),
      good("lonely", 0, 1), // a group of one
      good("same", 0, 1),
      good("same", 1, 1), // all-equal rewards
      scoredEpisode("x", 0, null, [tokenStep([1], [2])]), // unscored
      scoredEpisode("x", 1, 0, []), // no steps
      scoredEpisode("x", 2, 0, [tokenStep([1], [2])], { errorClass: "infra_error" }),
      scoredEpisode("x", 3, 0, [tokenStep([1], [2, 3], [-1])]), // misaligned logprobs
    ];
    const { groups, metrics } = transformEpisodes(episodes, { merge: "prefix", minGroupSize: 2, dropUniformGroups: true });
    expect(groups.map((group) => group.key)).toEqual(["full:solver"]);
    expect(metrics).toMatchObject({
      trajectories: 9,
      droppedUnscored: 1,
      droppedEmpty: 1,
      droppedInfraError: 1,
      droppedMissingLogprobs: 1,
      droppedMissingTokenIds: 0,
      groups: 3,
      droppedSmallGroups: 1,
      droppedUniformGroups: 1,
      droppedGroupTrajectories: 3,
      keptGroups: 1,
      keptTrajectories: 2,
      sequences: 2,
      tokens: 8,
      trainedTokens: 4,
    });
  });

  it("keeps all-equal groups unless asked to drop them", () => {
    const { groups, metrics } = transformEpisodes([good("same", 0, 1), good("same", 1, 1)]);
    expect(groups).toHaveLength(1);
    expect(metrics.droppedUniformGroups).toBe(0);
  });

  it("uses the episode reward for a lone trajectory without its own reward", () => {
    const episode = EpisodeSchema.parse({
      id: "t:0",
      taskId: "t",
      attempt: 0,
      score: scored(1, true),
      trajectories: [{ name: "solver", steps: [tokenStep([1], [2])] }],
    });
    const other = EpisodeSchema.parse({ ...episode, id: "t:1", attempt: 1, score: scored(0, false) });
    const { groups } = transformEpisodes([episode, other]);
    expect(groups[0]!.members.map((member) => member.reward)).toEqual([1, 0]);
  });
});

describe("batch-baseline roles", () => {
  it("keeps a judge group of one and a uniform judge group when the judge's baseline is the batch", () => {
    const judge = (taskId: string, attempt: number, reward: number) =>
      scoredEpisode(taskId, attempt, reward, [tokenStep([1], [2])], { name: "judge" });
    const { groups, metrics } = transformEpisodes([judge("a", 0, 1), judge("b", 0, 0), judge("b", 1, 0), good("c", 0, 1)], {
      merge: "prefix",
      minGroupSize: 2,
      dropUniformGroups: true,
      batchBaselineRoles: ["judge"],
    });
    expect(groups.map((group) => group.key).sort()).toEqual(["a:judge", "b:judge"]);
    expect(metrics.droppedSmallGroups).toBe(1); // the solver group of one is still dropped
  });
});
