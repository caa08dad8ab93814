import { describe, expect, it } from "vitest";
import { RolloutScheduler, type ScheduledGroup } from "../../../src/training/loop/rollout-scheduler.js";
import type { GroupKey } from "../../../src/training/loop/select-batch.js";

/** A scheduler whose groups finish when the test says, sampled by the version current when they started. */
function harness(options: { maxStaleness: number; updates: number; groupsPerUpdate: number; settled?: string[]; carried?: ScheduledGroup[] }) {
  let version = 0;
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const scheduler = new RolloutScheduler<ScheduledGroup>({
    slotTaskIds: (slot) => Array.from({ length: options.groupsPerUpdate }, (_, index) => `task-${slot}-${index}`),
    runGroup: (key: GroupKey & { taskId: string }) => {
      const text = `${key.slot}:${key.taskIndex}`;
      started.push(text);
      const startVersion = version;
      return new Promise((resolve) => finishers.set(text, () => resolve({ ...key, oldestVersion: startVersion, newestVersion: startVersion })));
    },
    maxStaleness: options.maxStaleness,
    updates: options.updates,
    groupsPerUpdate: options.groupsPerUpdate,
    version: 0,
    settled: new Set(options.settled ?? []),
    carried: options.carried,
  });
  const finish = async (...keys: string[]) => {
    for (const key of keys) finishers.get(key)!();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const publish = (next: number) => {
    version = next;
    scheduler.setVersion(next);
  };
  return { scheduler, started, finish, publish };
}

describe("RolloutScheduler", () => {
  it("with maxStaleness 0 starts a step's groups only once the update before it is published (the synchronous loop)", async () => {
    const { scheduler, started, finish, publish } = harness({ maxStaleness: 0, updates: 3, groupsPerUpdate: 2 });
    scheduler.start();
    expect(started).toEqual(["1:0", "1:1"]);
    const batch = scheduler.nextBatch("drop");
    await finish("1:1", "1:0");
    // Finished out of order, batched in dispatch order.
    expect((await batch).batch.map((group) => `${group.slot}:${group.taskIndex}`)).toEqual(["1:0", "1:1"]);
    expect(started).toHaveLength(2);
    publish(1);
    expect(started).toEqual(["1:0", "1:1", "2:0", "2:1"]);
  });

  it("with maxStaleness K runs K steps ahead of the trainer and no further", async () => {
    const { scheduler, started, finish, publish } = harness({ maxStaleness: 2, updates: 10, groupsPerUpdate: 1 });
    scheduler.start();
    expect(started).toEqual(["1:0", "2:0", "3:0"]);
    await finish("1:0");
    await scheduler.nextBatch("drop");
    expect(started).toHaveLength(3);
    publish(1);
    expect(started).toEqual(["1:0", "2:0", "3:0", "4:0"]);
  });

  it("waits for enough fresh groups, drops stale ones, and opens a step past the last to replace them", async () => {
    const { scheduler, started, finish, publish } = harness({ maxStaleness: 1, updates: 2, groupsPerUpdate: 1 });
    scheduler.start();
    expect(started).toEqual(["1:0", "2:0"]);
    // Step 1's group is slow: the first update takes step 2's instead.
    await finish("2:0");
    expect((await scheduler.nextBatch("drop")).batch.map((group) => group.slot)).toEqual([2]);
    publish(1);
    publish(2);
    // Sampled by version 0, step 1's group is 2 versions behind when the second update comes: dropped, and a third
    // step's group (beyond the run's two) replaces it.
    await finish("1:0");
    const second = scheduler.nextBatch("drop");
    expect(started).toContain("3:0");
    await finish("3:0");
    const selection = await second;
    expect(selection.dropped.map((group) => group.slot)).toEqual([1]);
    expect(selection.batch.map((group) => [group.slot, group.oldestVersion])).toEqual([[3, 2]]);
  });

  it("never runs again a group a resumed run settled or carried over, and offers the carried one first", async () => {
    const carried = [{ slot: 1, taskIndex: 1, taskId: "task-1-1", oldestVersion: 0, newestVersion: 0, finishedOrder: 4 }];
    const { scheduler, started, finish } = harness({ maxStaleness: 0, updates: 2, groupsPerUpdate: 2, settled: ["1:0"], carried });
    scheduler.start();
    expect(started).toEqual([]);
    const batch = await scheduler.nextBatch("drop");
    expect(batch.batch.map((group) => group.finishedOrder)).toEqual([4]);
    await finish();
  });
});
