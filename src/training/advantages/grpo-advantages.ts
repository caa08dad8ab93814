/** GRPO and Dr.GRPO: each reward compared with the mean of its own group (the rollouts of one prompt). */
import type { AdvantageConvention } from "./advantage-convention.js";
import { mean, populationStd, sampleStd, STD_EPSILON } from "./group-statistics.js";

/**
 * GRPO: (r − group mean) / (std + 1e-6); an all-equal group gives zeros. With the `verl` convention the std is
 * Bessel-corrected and a group of one keeps r / (1 + 1e-6) (verl's compute_grpo_outcome_advantage: mean 0, std 1);
 * with `population` it is numpy's std and a group of one gets 0.
 */
export function grpoAdvantages(rewards: readonly number[], convention: AdvantageConvention = "verl"): number[] {
  const { centre, scale } = groupBaseline(rewards, convention);
  return rewards.map((reward) => (reward - centre) / (scale + STD_EPSILON));
}

/** Dr.GRPO: r − group mean, without the std division that over-weights easy and hard prompts (group of one: see GRPO). */
export function drGrpoAdvantages(rewards: readonly number[], convention: AdvantageConvention = "verl"): number[] {
  const { centre } = groupBaseline(rewards, convention);
  return rewards.map((reward) => reward - centre);
}

/** The group's mean and std under `convention`; verl gives a lone rollout mean 0 and std 1. */
export function groupBaseline(rewards: readonly number[], convention: AdvantageConvention): { centre: number; scale: number } {
  if (convention === "verl") {
    return rewards.length === 1 ? { centre: 0, scale: 1 } : { centre: mean(rewards), scale: sampleStd(rewards) };
  }
  return { centre: mean(rewards), scale: populationStd(rewards) };
}
