/** GRPO and Dr.GRPO: each reward compared with the mean of its own group (the rollouts of one prompt). */
import { mean, populationStd, STD_EPSILON } from "./group-statistics.js";

/** GRPO: (r − group mean) / (population std + 1e-6); an all-equal group gives zeros. */
export function grpoAdvantages(rewards: readonly number[]): number[] {
  const centre = mean(rewards);
  const scale = populationStd(rewards) + STD_EPSILON;
  return rewards.map((reward) => (reward - centre) / scale);
}

/** Dr.GRPO: r − group mean, without the std division that over-weights easy and hard prompts. */
export function drGrpoAdvantages(rewards: readonly number[]): number[] {
  const centre = mean(rewards);
  return rewards.map((reward) => reward - centre);
}
