/**
 * One rollout group: a task's `groupSize` solver attempts and (joint training) the policy's judge calls on pairs of
 * them, with the policy versions that sampled each call. The unit the rollout scheduler hands out and an update trains.
 */
import type { Cookbook } from "../../core/cookbook.js";
import type { Episode } from "../../core/episode.js";
import type { RunResources } from "../../core/run-resources.js";
import { createRng, deriveSeed } from "../../core/random.js";
import type { Task } from "../../core/task.js";
import type { SamplingParams } from "../../core/llm-client.js";
import type { Gateway } from "../../gateway/gateway-server.js";
import { cookbookJudgeKind } from "../../tournament/cookbook-judge-kind.js";
import type { TrainConfig } from "../train-config.js";
import { judgeRollouts } from "./judge-rollouts.js";
import { rolloutEpisodes } from "./rollout-episodes.js";
import type { Limited, PriorityLimit } from "./priority-limit.js";
import type { ScheduledGroup } from "./rollout-scheduler.js";

/** A finished group: its episodes, the judge's figures, and the versions that sampled it. */
export interface TrainingGroup extends ScheduledGroup {
  solverEpisodes: Episode[];
  judgeEpisodes: Episode[];
  /** Joint training: mixed pairs judged and ranked right, the judge calls' summed reward, unreadable verdicts. */
  judge: { mixedPairs: number; mixedCorrect: number; rewardSum: number; calls: number; parseErrors: number } | null;
}

export interface RolloutGroupContext {
  config: TrainConfig;
  cookbook: Cookbook;
  gateway: Gateway;
  sampling: SamplingParams;
  /** Shared by every group of the run (`config.concurrency` episodes in flight in all), earlier groups first. */
  limit: PriorityLimit;
  signal: AbortSignal;
  /** The run's sandbox and pools, lent to every flow and evaluator. */
  resources: RunResources;
  /**
   * The model name a call asks for as its episode starts, and the version that name stands for: a name pinned to
   * the newest version (partial rollouts off), or the plain name, which always means the newest (partial rollouts on).
   */
  modelForEpisode(): { model: string; version: number };
  /** The versions handed out by modelForEpisode whose episodes have ended (their samplers may close). */
  release(versions: readonly number[]): void;
  /** The newest version now (what a call without a weight_version in its reply is counted as, at the latest). */
  currentVersion(): number;
}

/** Runs the group of `task` drawn for `slot` at `taskIndex`. */
export async function runRolloutGroup(task: Task, slot: number, taskIndex: number, context: RolloutGroupContext): Promise<Omit<TrainingGroup, "finishedOrder">> {
  const startVersions: number[] = [];
  const model = () => {
    const chosen = context.modelForEpisode();
    startVersions.push(chosen.version);
    return chosen.model;
  };
  try {
    // Dispatch order is priority: a group's episodes and judge calls go before any later group's.
    const limit = context.limit.at(slot * 1_000_000 + taskIndex);
    const { solverEpisodes, judgeEpisodes, judge } = await rolloutAndJudge(task, slot, model, limit, context);
    const versions = samplingVersions([...solverEpisodes, ...judgeEpisodes], startVersions, context.currentVersion());
    return { slot, taskIndex, taskId: task.id, solverEpisodes, judgeEpisodes, judge, ...versions };
  } finally {
    context.release(startVersions);
  }
}

async function rolloutAndJudge(task: Task, slot: number, model: () => string, limit: Limited, context: RolloutGroupContext): Promise<Pick<TrainingGroup, "solverEpisodes" | "judgeEpisodes" | "judge">> {
  const { config } = context;
  const common = { gateway: context.gateway, model, sampling: context.sampling, concurrency: config.concurrency, limit, signal: context.signal, resources: context.resources };
  // The step's seed, as the synchronous loop has always sampled a step's attempts: each derives its own per episode.
  const seed = config.seed * 7919 + slot;
  const solverEpisodes = await rolloutEpisodes([task], {
    ...common,
    cookbook: context.cookbook,
    seed,
    attempts: config.groupSize,
    timeoutMs: config.timeoutSeconds * 1000,
    sessionPrefix: `step-${slot}`,
  });
  if (!config.joint.enabled) return { solverEpisodes, judgeEpisodes: [], judge: null };
  const judged = await judgeRollouts([task], solverEpisodes, {
    ...common,
    judgeKind: cookbookJudgeKind(context.cookbook),
    pairsPerTask: config.joint.pairsPerTask,
    pairing: config.joint.pairing,
    samplesPerPair: config.joint.samplesPerPair,
    // Each group draws its pairs from a generator of its own, so the draw does not depend on which group finished first.
    random: createRng(deriveSeed(config.seed * 1_000_003 + slot, task.id, 0)),
    // Judge attempts are numbered after the solver attempts, so every call's derived seed differs.
    seed,
    sessionPrefix: `step-${slot}`,
  });
  const judge = {
    mixedPairs: judged.mixedPairs,
    mixedCorrect: judged.mixedCorrect,
    rewardSum: judged.meanReward * judged.episodes.length,
    calls: judged.episodes.length,
    parseErrors: judged.parseErrors,
  };
  return { solverEpisodes, judgeEpisodes: judged.episodes, judge };
}

/**
 * The oldest and newest policy version among the group's calls: each reply's weight_version (the gateway puts it in
 * the step's info); when a reply lacks one, the versions the episodes started on and the newest version now bound it.
 */
export function samplingVersions(episodes: readonly Episode[], startVersions: readonly number[], versionNow: number): { oldestVersion: number; newestVersion: number } {
  const stamped: number[] = [];
  let isComplete = true;
  for (const episode of episodes) {
    for (const trajectory of episode.trajectories) {
      for (const step of trajectory.steps) {
        const version = Number(step.info.weightVersion);
        if (step.info.weightVersion !== undefined && Number.isInteger(version)) stamped.push(version);
        else isComplete = false;
      }
    }
  }
  if (isComplete && stamped.length > 0) return { oldestVersion: Math.min(...stamped), newestVersion: Math.max(...stamped) };
  const known = [...stamped, ...startVersions];
  return { oldestVersion: known.length > 0 ? Math.min(...known) : versionNow, newestVersion: Math.max(versionNow, ...known) };
}
