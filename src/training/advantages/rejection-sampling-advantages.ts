/** Rejection-sampling fine-tuning (RFT / RAFT / ReST-EM) as an estimator: learn only from the policy's full-marks samples. */

/** Rewards within this distance of the full mark (1) count as full marks (a reward may be a sum of halves). */
const FULL_MARK_TOLERANCE = 1e-9;

/**
 * 1 for a trajectory with full marks (reward 1), 0 for any other: the policy's own successful samples are imitated and
 * nothing is pushed down. No baseline, so a failed sample adds no gradient at all, including to the tokens it shares
 * with successful ones (a verdict that was right given a slipped step is not punished for the slip).
 */
export function rejectionSamplingAdvantages(groups: readonly (readonly number[])[]): number[][] {
  return groups.map((rewards) => rewards.map((reward) => (reward >= 1 - FULL_MARK_TOLERANCE ? 1 : 0)));
}
