/** The transform stage: scored episodes → filtered trajectory groups with token sequences, plus the step's drop counts. */
import type { Episode } from "../../core/episode.js";
import type { MergeMode } from "./build-token-sequences.js";
import { filterGroups } from "./filter-groups.js";
import { groupTrajectories, type TrajectoryGroup } from "./group-trajectories.js";
import { emptyTransformMetrics, type TransformMetrics } from "./transform-metrics.js";

export interface TransformOptions {
  merge: MergeMode;
  minGroupSize: number;
  dropUniformGroups: boolean;
  /** Roles exempt from the group-size and uniform-reward rules (see GroupFilterOptions). */
  batchBaselineRoles?: readonly string[];
}

export const defaultTransformOptions: TransformOptions = { merge: "prefix", minGroupSize: 2, dropUniformGroups: false };

/** Groups, filters and tokenises (from sampler ids) the trajectories of `episodes`. */
export function transformEpisodes(
  episodes: readonly Episode[],
  options: TransformOptions = defaultTransformOptions,
): { groups: TrajectoryGroup[]; metrics: TransformMetrics } {
  const metrics = emptyTransformMetrics();
  const groups = filterGroups(groupTrajectories(episodes, options.merge, metrics), options, metrics);
  for (const group of groups) {
    metrics.keptGroups += 1;
    metrics.keptTrajectories += group.members.length;
    for (const member of group.members) {
      for (const sequence of member.sequences) {
        metrics.sequences += 1;
        metrics.tokens += sequence.tokens.length;
        metrics.trainedTokens += sequence.lossMask.reduce((sum, mask) => sum + mask, 0);
      }
    }
  }
  return { groups, metrics };
}
