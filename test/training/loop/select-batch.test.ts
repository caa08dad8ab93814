import { describe, expect, it } from "vitest";
import { groupStaleness, selectBatch, stalenessStatistics, type FinishedGroup } from "../../../src/training/loop/select-batch.js";

const group = (slot: number, taskIndex: number, oldestVersion: number, taskId = `t${slot}-${taskIndex}`): FinishedGroup => ({ slot, taskIndex, taskId, oldestVersion, newestVersion: oldestVersion });

describe("selectBatch", () => {
  it("drops groups more than maxStaleness versions behind the trainer and takes the earliest of the rest in dispatch order", () => {
    const finished = [group(3, 1, 2), group(2, 0, 0), group(3, 0, 2), group(2, 1, 1), group(4, 0, 3)];
    const selection = selectBatch(finished, { trainerVersion: 3, maxStaleness: 2, size: 3, stale: "drop" });
    expect(selection.dropped.map((entry) => [entry.slot, entry.taskIndex])).toEqual([[2, 0]]);
    expect(selection.batch.map((entry) => [entry.slot, entry.taskIndex])).toEqual([[2, 1], [3, 0], [3, 1]]);
    expect(selection.reweighted).toEqual([]);
  });

  it("keeps stale groups for truncated importance weighting when asked to reweight, and says which", () => {
    const selection = selectBatch([group(1, 0, 0), group(2, 0, 2)], { trainerVersion: 3, maxStaleness: 1, size: 2, stale: "reweight" });
    expect(selection.dropped).toEqual([]);
    expect(selection.batch).toHaveLength(2);
    expect(selection.reweighted.map((entry) => entry.slot)).toEqual([1]);
  });

  it("takes one group per task: a later slot's draw of the same task waits for the next batch", () => {
    const selection = selectBatch([group(1, 0, 0, "a"), group(2, 3, 0, "a"), group(2, 4, 0, "b")], { trainerVersion: 0, maxStaleness: 1, size: 3, stale: "drop" });
    expect(selection.batch.map((entry) => entry.taskId)).toEqual(["a", "b"]);
  });

  it("counts staleness from the oldest version that sampled any call of a group", () => {
    expect(groupStaleness({ oldestVersion: 2 }, 5)).toBe(3);
    expect(groupStaleness({ oldestVersion: 5 }, 5)).toBe(0);
    expect(stalenessStatistics([{ oldestVersion: 4 }, { oldestVersion: 3 }, { oldestVersion: 3 }], 4)).toEqual({ mean: 2 / 3, max: 1, histogram: { "0": 1, "1": 2 } });
  });
});
