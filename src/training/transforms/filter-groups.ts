/** Drops groups that cannot teach a group-relative estimator anything, counting each drop. */
import type { TrajectoryGroup } from "./group-trajectories.js";
import type { TransformMetrics } from "./transform-metrics.js";

export interface GroupFilterOptions {
  /** Groups with fewer members are dropped (rLLM's min_trajs_per_group, default 2). */
  minGroupSize: number;
  /** Drop groups whose rewards are all equal (their group-relative advantages are all zero). */
  dropUniformGroups: boolean;
  /**
   * Roles whose estimator takes its baseline from the whole batch (REINFORCE, REINFORCE++): a small or uniform
   * group still carries signal there, so neither rule applies to them.
   */
  batchBaselineRoles?: readonly string[];
}

/** The groups that pass both rules; drops are added to `metrics`. */
export function filterGroups(
  groups: readonly TrajectoryGroup[],
  options: GroupFilterOptions,
  metrics: TransformMetrics,
): TrajectoryGroup[] {
  const kept: TrajectoryGroup[] = [];
  for (const group of groups) {
    if (options.batchBaselineRoles?.includes(group.role)) {
      kept.push(group);
      continue;
    }
    if (group.members.length < options.minGroupSize) {
      metrics.droppedSmallGroups += 1;
      metrics.droppedGroupTrajectories += group.members.length;
      continue;
    }
    const first = group.members[0]!.reward;
    if (options.dropUniformGroups && group.members.every((member) => member.reward === first)) {
      metrics.droppedUniformGroups += 1;
      metrics.droppedGroupTrajectories += group.members.length;
      continue;
    }
    kept.push(group);
  }
  return kept;
}
