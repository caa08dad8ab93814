/** The estimator registry: names accepted in configs, and per-role dispatch over a batch of reward groups. */
import { z } from "zod";
import { drGrpoAdvantages, grpoAdvantages } from "./grpo-advantages.js";
import { rlooAdvantages } from "./rloo-advantages.js";
import { reinforceAdvantages, reinforcePlusPlusAdvantages, reinforcePlusPlusBaselineAdvantages } from "./reinforce-advantages.js";
import { rejectionSamplingAdvantages } from "./rejection-sampling-advantages.js";
import type { AdvantageConvention } from "./advantage-convention.js";

export const AdvantageEstimatorSchema = z.enum([
  "grpo",
  "dr_grpo",
  "rloo",
  "reinforce",
  "reinforce_plus_plus",
  "reinforce_plus_plus_baseline",
  "rejection_sampling",
]);
export type AdvantageEstimator = z.infer<typeof AdvantageEstimatorSchema>;

/** Estimators whose baseline comes from the rollouts of one prompt, so a group of one carries no signal. */
export const GROUP_RELATIVE_ESTIMATORS: readonly AdvantageEstimator[] = ["grpo", "dr_grpo", "rloo"];

/** One group of trajectory rewards, tagged with the role ("solver", "judge"...) it belongs to. */
export interface RewardGroup {
  role: string;
  rewards: readonly number[];
  /** Each trajectory's trained tokens, which REINFORCE++ weighs under the `verl` convention; absent = 1 each. */
  tokenCounts?: readonly number[];
}

/**
 * Advantages for one role's groups with `estimator`; the output has the same shape as the input. `tokenCounts`, when
 * given, has that shape too (see `RewardGroup`).
 */
export function estimateAdvantages(
  estimator: AdvantageEstimator,
  groups: readonly (readonly number[])[],
  convention: AdvantageConvention = "verl",
  tokenCounts?: readonly (readonly number[])[],
): number[][] {
  switch (estimator) {
    case "grpo":
      return groups.map((rewards) => grpoAdvantages(rewards, convention));
    case "dr_grpo":
      return groups.map((rewards) => drGrpoAdvantages(rewards, convention));
    case "rloo":
      return groups.map(rlooAdvantages);
    case "reinforce":
      return reinforceAdvantages(groups);
    case "reinforce_plus_plus":
      return reinforcePlusPlusAdvantages(groups, tokenCounts, convention);
    case "reinforce_plus_plus_baseline":
      return reinforcePlusPlusBaselineAdvantages(groups, tokenCounts, convention);
    case "rejection_sampling":
      return rejectionSamplingAdvantages(groups);
  }
}

/**
 * Advantages for a mixed batch: groups are split by role, each role gets its own estimator
 * (`byRole[role]`, else `fallback`), so batch-level baselines never mix solver and judge rewards.
 */
export function estimateAdvantagesByRole(
  groups: readonly RewardGroup[],
  byRole: Readonly<Record<string, AdvantageEstimator>>,
  fallback: AdvantageEstimator,
  convention: AdvantageConvention = "verl",
): number[][] {
  const result: number[][] = new Array(groups.length);
  const indicesByRole = new Map<string, number[]>();
  groups.forEach((group, index) => {
    const indices = indicesByRole.get(group.role) ?? [];
    indices.push(index);
    indicesByRole.set(group.role, indices);
  });
  for (const [role, indices] of indicesByRole) {
    const advantages = estimateAdvantages(
      byRole[role] ?? fallback,
      indices.map((index) => groups[index]!.rewards),
      convention,
      indices.map((index) => groups[index]!.tokenCounts ?? groups[index]!.rewards.map(() => 1)),
    );
    indices.forEach((groupIndex, position) => {
      result[groupIndex] = advantages[position]!;
    });
  }
  return result;
}
