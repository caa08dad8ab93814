/**
 * Which finished rollout groups an update trains on, and which it drops for staleness (pure). Staleness is how many
 * policy versions the trainer has moved past the oldest version that sampled any of a group's calls: rollouts of the
 * synchronous loop have staleness 0. prime-rl bounds it with max_async_level (orchestrator steps ahead of the
 * trainer) and drops older rollouts (max_off_policy_steps); AReaL calls it max_head_offpolicyness; tinker-cookbook's
 * async RL discards groups sampled more than max_steps_off_policy versions ago.
 */

/** Where a group stands in the dispatch order: the step its task was drawn for, and the task's place in that draw. */
export interface GroupKey {
  slot: number;
  taskIndex: number;
}

/** A finished group as batch selection sees it: its key and the policy versions that sampled its calls. */
export interface FinishedGroup extends GroupKey {
  taskId: string;
  /** Oldest and newest version among its calls (equal unless partial rollouts crossed an update). */
  oldestVersion: number;
  newestVersion: number;
}

/** What happens to a group more than maxStaleness versions old: dropped, or trained with truncated importance weights. */
export type StalePolicy = "drop" | "reweight";

export interface BatchSelection<Group extends FinishedGroup> {
  /** The groups to train on, in dispatch order (slot, then task): the batch does not depend on completion order. */
  batch: Group[];
  /** Groups found too stale and dropped; they never train. */
  dropped: Group[];
  /** Groups past maxStaleness kept for truncated importance weighting ("reweight"). */
  reweighted: Group[];
}

/** A group's staleness when the trainer holds `trainerVersion`. */
export function groupStaleness(group: Pick<FinishedGroup, "oldestVersion">, trainerVersion: number): number {
  return Math.max(0, trainerVersion - group.oldestVersion);
}

/**
 * The batch for the next update from the finished groups not yet trained: stale ones are dropped (or kept to be
 * reweighted), then the `size` earliest in dispatch order are taken, one per task. Earliest first keeps a slow group from waiting
 * longer and growing staler while later ones overtake it; with maxStaleness 0 only the current slot's groups exist,
 * so the batch is exactly the synchronous loop's.
 */
export function selectBatch<Group extends FinishedGroup>(
  finished: readonly Group[],
  options: { trainerVersion: number; maxStaleness: number; size: number; stale: StalePolicy },
): BatchSelection<Group> {
  const ordered = [...finished].sort(compareGroups);
  const dropped: Group[] = [];
  const fresh: Group[] = [];
  for (const group of ordered) {
    const isStale = groupStaleness(group, options.trainerVersion) > options.maxStaleness;
    if (isStale && options.stale === "drop") dropped.push(group);
    else fresh.push(group);
  }
  // One group per task in a batch: two groups of one task (drawn again by a later slot) would share episode ids and
  // merge into one advantage group; the later one waits for the next batch.
  const batch: Group[] = [];
  const tasks = new Set<string>();
  for (const group of fresh) {
    if (batch.length === options.size) break;
    if (tasks.has(group.taskId)) continue;
    tasks.add(group.taskId);
    batch.push(group);
  }
  const reweighted = batch.filter((group) => groupStaleness(group, options.trainerVersion) > options.maxStaleness);
  return { batch, dropped, reweighted };
}

/** Dispatch order: slot, then task. */
export function compareGroups(first: GroupKey, second: GroupKey): number {
  return first.slot - second.slot || first.taskIndex - second.taskIndex;
}

/** Mean, largest and count-by-value of the staleness of `groups` at `trainerVersion`. */
export function stalenessStatistics(groups: readonly Pick<FinishedGroup, "oldestVersion">[], trainerVersion: number): { mean: number; max: number; histogram: Record<string, number> } {
  const values = groups.map((group) => groupStaleness(group, trainerVersion));
  const histogram: Record<string, number> = {};
  for (const value of values) histogram[value] = (histogram[value] ?? 0) + 1;
  return { mean: values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length, max: Math.max(0, ...values), histogram };
}
