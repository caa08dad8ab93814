import { describe, expect, it } from "vitest";
import { AdvantageConfigSchema, assignAdvantages } from "../../src/training/assign-advantages.js";
import { transformEpisodes } from "../../src/training/transforms/index.js";
import { scoredEpisode, tokenStep } from "./transforms/fixtures.js";

const episode = (taskId: string, attempt: number, reward: number, name = "solver") =>
  scoredEpisode(taskId, attempt, reward, [tokenStep([1, 2], [3])], { name });

describe("assignAdvantages", () => {
  it("broadcasts each trajectory's advantage to its sequences and weights the judge role by λ", () => {
    const { groups } = transformEpisodes([
      episode("t", 0, 1),
      episode("t", 1, 0),
      episode("t", 2, 1, "judge"),
      episode("t", 3, 0, "judge"),
    ]);
    const config = AdvantageConfigSchema.parse({
      estimator: "dr_grpo",
      byRole: { judge: "reinforce" },
      roleWeights: { judge: 0.5 },
    });
    const { sequences, statisticsByRole } = assignAdvantages(groups, config);
    const byEpisode = Object.fromEntries(sequences.map((sequence) => [sequence.episodeId, sequence]));
    expect(byEpisode["t:0"]!.advantage).toBe(0.5);
    expect(byEpisode["t:1"]!.advantage).toBe(-0.5);
    expect(byEpisode["t:2"]!.advantage).toBe(0.25);
    expect(byEpisode["t:2"]!.role).toBe("judge");
    expect(statisticsByRole.judge!.max).toBe(0.25);
  });

  it("rejects an unknown estimator name in the config", () => {
    expect(AdvantageConfigSchema.safeParse({ estimator: "ppo_magic" }).success).toBe(false);
    expect(AdvantageConfigSchema.safeParse({ estimtor: "grpo" }).success).toBe(false);
  });
});
