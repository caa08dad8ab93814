/**
 * The rollout scheduler: hands out rollout groups (a task's attempts and their judge calls) in dispatch order (slot
 * by slot, each slot the tasks drawn for that step) and collects them as they finish, so the trainer takes its batch
 * from whatever has finished. A slot opens once the policy is at most `maxStaleness` versions behind it: slot s needs
 * version s − 1 − maxStaleness, so with 0 slot s waits for the update before it (the synchronous loop) and with K the
 * sampler runs up to K updates ahead, never waiting for an update otherwise (prime-rl's max_async_level,
 * tinker-cookbook's sampling steps ahead).
 */
import { compareGroups, groupStaleness, selectBatch, type BatchSelection, type FinishedGroup, type GroupKey, type StalePolicy } from "./select-batch.js";

/** A finished group as the scheduler keeps it: what batch selection needs plus whatever the runner produced. */
export interface ScheduledGroup extends FinishedGroup {
  /** The n-th group to finish in this run (0, 1, …): the order the record keeps so a run can be replayed. */
  finishedOrder: number;
}

export interface RolloutSchedulerOptions<Group extends ScheduledGroup> {
  /** The task ids drawn for `slot` (seeded: the same every run and after a resume). */
  slotTaskIds(slot: number): readonly string[];
  /** Runs one group; `finishedOrder` is filled in by the scheduler. */
  runGroup(key: GroupKey & { taskId: string }): Promise<Omit<Group, "finishedOrder">>;
  /** Called as each group finishes, before it can be trained (the run persists it). */
  onFinished?(group: Group): void;
  maxStaleness: number;
  /** Updates the run will make in all, and groups per update: slots past the last update's open only to replace drops. */
  updates: number;
  groupsPerUpdate: number;
  /** The policy version now (the one the next update trains from). */
  version: number;
  /** Groups already trained or dropped ("slot:task"): never run again (a resumed run). */
  settled?: ReadonlySet<string>;
  /** Groups that finished before a resume and are still usable: not run again, offered to the next batches. */
  carried?: readonly Group[];
  /** Updates already made (a resumed run). */
  updatesDone?: number;
}

/** The key of a group in `settled` and in records: "slot:task". */
export function groupKeyText(key: GroupKey): string {
  return `${key.slot}:${key.taskIndex}`;
}

export class RolloutScheduler<Group extends ScheduledGroup> {
  private version: number;
  private nextSlot = 1;
  private finishedCount = 0;
  private updatesDone: number;
  private readonly settled: Set<string>;
  private readonly finished: Group[];
  private readonly running = new Map<string, Promise<void>>();
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: RolloutSchedulerOptions<Group>) {
    this.version = options.version;
    this.updatesDone = options.updatesDone ?? 0;
    this.settled = new Set(options.settled ?? []);
    this.finished = [...(options.carried ?? [])];
    this.finishedCount = Math.max(0, ...this.finished.map((group) => group.finishedOrder + 1));
  }

  /** Starts the groups the current version opens (nothing runs before this). */
  start(): void {
    this.dispatch();
  }

  /** A new policy version is published: slots it opens start. */
  setVersion(version: number): void {
    this.version = version;
    this.dispatch();
  }

  /** Finished groups not yet trained (a checkpoint keeps them for the resume). */
  pending(): readonly Group[] {
    return this.finished;
  }

  /**
   * The next update's batch, once `groupsPerUpdate` groups fresh enough to train have finished (or nothing more can
   * come): selected by selectBatch at the current version. Rejects with the first group's failure.
   */
  async nextBatch(stale: StalePolicy): Promise<BatchSelection<Group>> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      const selection = selectBatch(this.finished, { trainerVersion: this.version, maxStaleness: this.options.maxStaleness, size: this.options.groupsPerUpdate, stale });
      const isComplete = selection.batch.length >= this.options.groupsPerUpdate;
      if (isComplete || (this.running.size === 0 && !this.canDispatch())) {
        this.take(selection);
        return selection;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** Waits for every running group to settle (after the run's signal cancelled them, or to finish cleanly). */
  async close(): Promise<void> {
    await Promise.allSettled(this.running.values());
  }

  private take(selection: BatchSelection<Group>): void {
    const taken = new Set([...selection.batch, ...selection.dropped]);
    for (const group of taken) this.settled.add(groupKeyText(group));
    const kept = this.finished.filter((group) => !taken.has(group));
    this.finished.splice(0, this.finished.length, ...kept);
    this.updatesDone += 1;
    this.dispatch();
  }

  // A slot may open once the policy is at most maxStaleness versions behind it, and only while groups are still
  // needed: the slots of the run's updates, then more only to replace groups that were dropped.
  private canDispatch(): boolean {
    if (this.nextSlot > this.version + 1 + this.options.maxStaleness) return false;
    if (this.nextSlot <= this.options.updates) return true;
    const needed = (this.options.updates - this.updatesDone) * this.options.groupsPerUpdate;
    // Finished groups already too stale to train will be dropped: they replace nothing.
    const usable = this.finished.filter((group) => groupStaleness(group, this.version) <= this.options.maxStaleness).length;
    return usable + this.running.size < needed;
  }

  private dispatch(): void {
    while (this.canDispatch()) {
      const slot = this.nextSlot++;
      const carried = new Set(this.finished.map(groupKeyText));
      for (const [taskIndex, taskId] of this.options.slotTaskIds(slot).entries()) {
        const key = { slot, taskIndex };
        const text = groupKeyText(key);
        if (this.settled.has(text) || carried.has(text)) continue;
        const run = this.options
          .runGroup({ ...key, taskId })
          .then((result) => {
            const group = { ...result, finishedOrder: this.finishedCount++ } as Group;
            this.options.onFinished?.(group);
            this.finished.push(group);
            this.finished.sort(compareGroups);
          })
          .catch((error: unknown) => {
            this.failure ??= { error };
          })
          .finally(() => {
            this.running.delete(text);
            // A group that finished too stale to train leaves room for a replacement.
            if (!this.failure) this.dispatch();
            this.wake?.();
          });
        this.running.set(text, run);
      }
    }
  }
}
