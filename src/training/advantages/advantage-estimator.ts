/** The estimator registry: names accepted in configs, and per-role dispatch over a batch of reward groups. */
import { z } from "zod";
import { drGrpoAdvantages, grpoAdvantages } from "./grpo-advantages.js";
import { rlooAdvantages } from "./rloo-advantages.js";
import { reinforceAdvantages, reinforcePlusPlusAdvantages } from "./reinforce-advantages.js";
import { rejectionSamplingAdvantages } from "./rejection-sampling-advantages.js";

export const AdvantageEstimatorSchema = z.enum(["grpo", "dr_grpo", "rloo", "reinforce", "reinforce_plus_plus", "rejection_sampling"]);
export type AdvantageEstimator = z.infer<typeof AdvantageEstimatorSchema>;

/** Estimators whose baseline comes from the rollouts of one prompt, so a group of one carries no signal. */
export const GROUP_RELATIVE_ESTIMATORS: readonly AdvantageEstimator[] = ["grpo", "dr_grpo", "rloo"];

/** One group of trajectory rewards, tagged with the role ("solver", "judge"...) it belongs to. */
export interface RewardGroup {
  role: string;
  rewards: readonly number[];
}

/** Advantages for one role's groups with `estimator`; the output has the same shape as the input. */
export function estimateAdvantages(
  estimator: AdvantageEstimator,
  groups: readonly (readonly number[])[],
): number[][] {
  switch (estimator) {
    case "grpo":
      return groups.map(grpoAdvantages);
    case "dr_grpo":
      return groups.map(drGrpoAdvantages);
    case "rloo":
      return groups.map(rlooAdvantages);
    case "reinforce":
      return reinforceAdvantages(groups);
    case "reinforce_plus_plus":
      return reinforcePlusPlusAdvantages(groups);
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
    );
    indices.forEach((groupIndex, position) => {
      result[groupIndex] = advantages[position]!;
    });
  }
  return result;
}
