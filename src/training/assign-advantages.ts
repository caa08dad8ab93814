/** Puts one advantage on every kept trajectory (per-role estimator, per-role loss weight) and flattens groups into train sequences. */
import { z } from "zod";
import {
  AdvantageConventionSchema,
  AdvantageEstimatorSchema,
  advantageStatistics,
  estimateAdvantagesByRole,
  type AdvantageStatistics,
} from "./advantages/index.js";
import type { TokenSequence, TrajectoryGroup } from "./transforms/index.js";

export const AdvantageConfigSchema = z
  .object({
    /** Estimator for roles not named in `byRole`. */
    estimator: AdvantageEstimatorSchema.default("grpo"),
    /** Per-role estimator, e.g. {"solver": "dr_grpo", "judge": "reinforce"} as in V1-PairRL. */
    byRole: z.record(z.string(), AdvantageEstimatorSchema).default({}),
    /** Per-role weight on the advantage (the λ of J_gen + λ·J_verif); 1 when absent. */
    roleWeights: z.record(z.string(), z.number().nonnegative()).default({}),
    /** Whose statistics the estimators follow: verl's core_algos (default) or per-trajectory population std. */
    convention: AdvantageConventionSchema.default("verl"),
  })
  .strict();
export type AdvantageConfig = z.infer<typeof AdvantageConfigSchema>;

/** A token sequence with the scalar advantage broadcast to its trained tokens, and its provenance. */
export interface TrainSequence extends TokenSequence {
  advantage: number;
  reward: number;
  role: string;
  groupKey: string;
  episodeId: string;
  /** Index of the trajectory within its episode. */
  trajectoryIndex: number;
}

/** Every kept trajectory's sequences with their advantage, plus advantage statistics overall and per role. */
export function assignAdvantages(
  groups: readonly TrajectoryGroup[],
  config: AdvantageConfig,
): { sequences: TrainSequence[]; statistics: AdvantageStatistics; statisticsByRole: Record<string, AdvantageStatistics> } {
  const advantages = estimateAdvantagesByRole(
    groups.map((group) => ({
      role: group.role,
      rewards: group.members.map((member) => member.reward),
      tokenCounts: group.members.map((member) => trainedTokens(member.sequences)),
    })),
    config.byRole,
    config.estimator,
    config.convention,
  );
  const sequences: TrainSequence[] = [];
  const perTrajectory: number[] = [];
  const perRole: Record<string, number[]> = {};
  groups.forEach((group, groupIndex) => {
    const weight = config.roleWeights[group.role] ?? 1;
    group.members.forEach((member, memberIndex) => {
      const advantage = advantages[groupIndex]![memberIndex]! * weight;
      perTrajectory.push(advantage);
      const roleAdvantages = perRole[group.role] ?? [];
      perRole[group.role] = roleAdvantages;
      roleAdvantages.push(advantage);
      for (const sequence of member.sequences) {
        sequences.push({
          ...sequence,
          advantage,
          reward: member.reward,
          role: group.role,
          groupKey: group.key,
          episodeId: member.episodeId,
          trajectoryIndex: member.trajectoryIndex,
        });
      }
    });
  });
  const statisticsByRole = Object.fromEntries(
    Object.entries(perRole).map(([role, values]) => [role, advantageStatistics(values)]),
  );
  return { sequences, statistics: advantageStatistics(perTrajectory), statisticsByRole };
}

// Tokens the loss trains on (mask 1) over a trajectory's sequences: REINFORCE++'s weight under the verl convention.
function trainedTokens(sequences: readonly TokenSequence[]): number {
  let count = 0;
  for (const sequence of sequences) for (const value of sequence.lossMask) count += value;
  return count;
}
