/**
 * `<out>/rollouts.jsonl`: every rollout group as it finishes, with the versions that sampled it, so a killed run loses
 * none it had finished. A resume carries over the groups no kept update trained or dropped and that were sampled by
 * versions the restored checkpoint still has (≤ its version); the rest run again. A checkpoint rewrites the file to
 * the groups not yet trained, so it stays the size of a few batches.
 */
import { existsSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { EpisodeSchema } from "../../core/episode.js";
import { JsonlAppender, readJsonl, repairTornTail } from "../../runs/append-only-jsonl.js";
import { groupKeyText } from "./rollout-scheduler.js";
import type { TrainingGroup } from "./run-rollout-group.js";

/** A line of rollouts.jsonl: one finished group. */
const RolloutLineSchema = z.object({
  slot: z.number().int().positive(),
  taskIndex: z.number().int().nonnegative(),
  taskId: z.string(),
  oldestVersion: z.number().int().nonnegative(),
  newestVersion: z.number().int().nonnegative(),
  finishedOrder: z.number().int().nonnegative(),
  solverEpisodes: z.array(EpisodeSchema),
  judgeEpisodes: z.array(EpisodeSchema),
  judge: z
    .object({ mixedPairs: z.number(), mixedCorrect: z.number(), rewardSum: z.number(), calls: z.number(), parseErrors: z.number() })
    .nullable(),
});

/** The run's rollout log. */
export class RolloutLog {
  private appender: JsonlAppender<TrainingGroup>;

  constructor(readonly file: string) {
    this.appender = new JsonlAppender<TrainingGroup>(file);
  }

  /** The log of the run in `directory`. */
  static at(directory: string): string {
    return path.join(directory, "rollouts.jsonl");
  }

  /** Appends a finished group, on disk before this returns. */
  append(group: TrainingGroup): void {
    this.appender.append(group);
  }

  /** Replaces the log with `groups` (a temporary file and a rename: a kill leaves the old or the new log). */
  rewrite(groups: readonly TrainingGroup[]): void {
    this.appender.close();
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, groups.map((group) => `${JSON.stringify(group)}\n`).join(""));
    renameSync(temporary, this.file);
    this.appender = new JsonlAppender<TrainingGroup>(this.file);
  }

  close(): void {
    this.appender.close();
  }
}

/**
 * The groups of `file` a resume at `version` may train: the last line of each group (a group run again after an
 * earlier resume has a later line), not `settled` (trained or dropped by a kept update), and sampled only by
 * versions up to `version` (a later version's weights were lost with the updates after the checkpoint).
 */
export function carriedGroups(file: string, settled: ReadonlySet<string>, version: number): { carried: TrainingGroup[]; discarded: number } {
  if (!existsSync(file)) return { carried: [], discarded: 0 };
  repairTornTail(file);
  const latest = new Map<string, TrainingGroup>();
  for (const { record } of readJsonl(file, RolloutLineSchema)) latest.set(groupKeyText(record), record as TrainingGroup);
  const carried: TrainingGroup[] = [];
  let discarded = 0;
  for (const [key, group] of latest) {
    if (settled.has(key)) continue;
    if (group.newestVersion <= version) carried.push(group);
    else discarded += 1;
  }
  return { carried, discarded };
}
