/** Groups every trajectory of a batch of episodes by `<taskId>:<trajectoryName>`, so each role is compared only with itself. */
import type { Episode } from "../../core/episode.js";
import { buildTokenSequences, type MergeMode, type TokenSequence } from "./build-token-sequences.js";
import type { TransformMetrics } from "./transform-metrics.js";

/** One trajectory that survived: its reward, its sequences and where it came from. */
export interface GroupMember {
  episodeId: string;
  trajectoryIndex: number;
  reward: number;
  isCorrect: boolean;
  sequences: TokenSequence[];
}

/** The same role's trajectories across every rollout of one task. */
export interface TrajectoryGroup {
  /** `<taskId>:<trajectoryName>` */
  key: string;
  taskId: string;
  role: string;
  members: GroupMember[];
}

/** The group key rLLM uses: task id, a colon, the trajectory (role) name. */
export function groupKey(taskId: string, role: string): string {
  return `${taskId}:${role}`;
}

/**
 * Groups the trajectories of `episodes`, dropping (and counting in `metrics`) empty, infra-failed,
 * unscored and token-less ones. A trajectory's reward is its own, else the episode's when it is the only one.
 */
export function groupTrajectories(
  episodes: readonly Episode[],
  merge: MergeMode,
  metrics: TransformMetrics,
): TrajectoryGroup[] {
  const groups = new Map<string, TrajectoryGroup>();
  for (const episode of episodes) {
    for (const [trajectoryIndex, trajectory] of episode.trajectories.entries()) {
      metrics.trajectories += 1;
      if (episode.errorClass === "infra_error") {
        metrics.droppedInfraError += 1;
        continue;
      }
      if (trajectory.steps.length === 0) {
        metrics.droppedEmpty += 1;
        continue;
      }
      const reward = trajectory.reward ?? (episode.trajectories.length === 1 && episode.score.status === "scored" ? episode.score.value : null);
      if (reward === null || !Number.isFinite(reward)) {
        metrics.droppedUnscored += 1;
        continue;
      }
      const built = buildTokenSequences(trajectory.steps, merge);
      if (!built.ok) {
        if (built.reason === "missing_token_ids") metrics.droppedMissingTokenIds += 1;
        else metrics.droppedMissingLogprobs += 1;
        continue;
      }
      const key = groupKey(episode.taskId, trajectory.name);
      let group = groups.get(key);
      if (!group) {
        group = { key, taskId: episode.taskId, role: trajectory.name, members: [] };
        groups.set(key, group);
      }
      group.members.push({
        episodeId: episode.id,
        trajectoryIndex,
        reward,
        isCorrect: trajectory.signals.isCorrect === undefined ? episode.score.isCorrect : trajectory.signals.isCorrect > 0,
        sequences: built.sequences,
      });
    }
  }
  metrics.groups += groups.size;
  return [...groups.values()];
}
