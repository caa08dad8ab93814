/** Counts of everything the transform kept and dropped in one step, so no drop is ever silent. */
import { z } from "zod";

export const TransformMetricsSchema = z.object({
  /** Trajectories seen across all episodes. */
  trajectories: z.number().int(),
  /** Dropped: the trajectory had no steps. */
  droppedEmpty: z.number().int(),
  /** Dropped: the episode failed for infrastructure reasons (no answer obtained). */
  droppedInfraError: z.number().int(),
  /** Dropped: no reward on the trajectory (unscored, not a silent 0). */
  droppedUnscored: z.number().int(),
  /** Dropped: a step lacked sampler token ids. */
  droppedMissingTokenIds: z.number().int(),
  /** Dropped: a step lacked sampler logprobs, or they did not align with its token ids. */
  droppedMissingLogprobs: z.number().int(),
  /** Groups formed from the surviving trajectories. */
  groups: z.number().int(),
  /** Groups dropped for having fewer members than the minimum (default 2). */
  droppedSmallGroups: z.number().int(),
  /** Groups dropped because every reward was equal (only when that filter is on). */
  droppedUniformGroups: z.number().int(),
  /** Trajectories inside dropped groups. */
  droppedGroupTrajectories: z.number().int(),
  /** Groups and trajectories that reach the trainer. */
  keptGroups: z.number().int(),
  keptTrajectories: z.number().int(),
  /**
   * Trajectories whose last call stopped at the token limit, kept in their group's advantages but not trained
   * (`transform.maskTruncated`); 0 when that is off.
   */
  maskedTruncated: z.number().int(),
  /** Token sequences and tokens (all / trained) that reach the trainer. */
  sequences: z.number().int(),
  tokens: z.number().int(),
  trainedTokens: z.number().int(),
});
export type TransformMetrics = z.infer<typeof TransformMetricsSchema>;

/** A metrics record with every count at zero. */
export function emptyTransformMetrics(): TransformMetrics {
  return {
    trajectories: 0,
    droppedEmpty: 0,
    droppedInfraError: 0,
    droppedUnscored: 0,
    droppedMissingTokenIds: 0,
    droppedMissingLogprobs: 0,
    groups: 0,
    droppedSmallGroups: 0,
    droppedUniformGroups: 0,
    droppedGroupTrajectories: 0,
    keptGroups: 0,
    keptTrajectories: 0,
    maskedTruncated: 0,
    sequences: 0,
    tokens: 0,
    trainedTokens: 0,
  };
}
