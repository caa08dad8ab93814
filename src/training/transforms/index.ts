/** Transforms: scored episodes → groups of token sequences, with every drop counted. */
export {
  buildTokenSequences,
  type TokenSequence,
  type MergeMode,
  type SequenceFailure,
  type BuildSequencesResult,
} from "./build-token-sequences.js";
export { groupTrajectories, groupKey, type TrajectoryGroup, type GroupMember } from "./group-trajectories.js";
export { filterGroups, type GroupFilterOptions } from "./filter-groups.js";
export { transformEpisodes, defaultTransformOptions, type TransformOptions } from "./transform-episodes.js";
export { TransformMetricsSchema, emptyTransformMetrics, type TransformMetrics } from "./transform-metrics.js";
export { withoutTruncated } from "./mask-truncated.js";
