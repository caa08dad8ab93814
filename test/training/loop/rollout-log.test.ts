import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { carriedGroups, RolloutLog } from "../../../src/training/loop/rollout-log.js";
import type { TrainingGroup } from "../../../src/training/loop/run-rollout-group.js";

const group = (slot: number, taskIndex: number, oldestVersion: number, newestVersion: number, finishedOrder: number): TrainingGroup => ({
  slot,
  taskIndex,
  taskId: `t${slot}-${taskIndex}`,
  oldestVersion,
  newestVersion,
  finishedOrder,
  solverEpisodes: [],
  judgeEpisodes: [],
  judge: null,
});

describe("the rollout log a resume reads", () => {
  it("carries over the groups no kept update settled and the checkpoint's versions sampled, the last line of each winning", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "rllm-rollout-log-")), "rollouts.jsonl");
    const log = new RolloutLog(file);
    log.append(group(1, 0, 0, 0, 0)); // trained before the checkpoint
    log.append(group(2, 0, 1, 1, 1)); // finished, not trained: carried
    log.append(group(3, 0, 3, 3, 2)); // sampled by version 3, lost with the updates after the checkpoint at 2
    log.append(group(2, 1, 0, 0, 3));
    log.append(group(2, 1, 2, 3, 4)); // run again after an earlier resume: this later line is the one
    log.close();
    const { carried, discarded } = carriedGroups(file, new Set(["1:0"]), 2);
    expect(carried.map((entry) => `${entry.slot}:${entry.taskIndex}`)).toEqual(["2:0"]);
    expect(discarded).toBe(2);
  });

  it("keeps only what a checkpoint has not trained when rewritten", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "rllm-rollout-log-")), "rollouts.jsonl");
    const log = new RolloutLog(file);
    log.append(group(1, 0, 0, 0, 0));
    log.rewrite([group(2, 0, 1, 1, 1)]);
    log.append(group(2, 1, 1, 1, 2));
    log.close();
    expect(carriedGroups(file, new Set(), 5).carried.map((entry) => entry.finishedOrder)).toEqual([1, 2]);
  });
});
