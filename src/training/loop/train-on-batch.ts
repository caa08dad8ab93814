/**
 * One update on a batch of finished rollout groups: transform (group, merge, drop) → advantages → (optionally) mask
 * truncated samples → backend update → publish the new policy version, and the step's record.
 */
import type { Episode } from "../../core/episode.js";
import { infraErrorRate } from "../../metrics/infra-error-rate.js";
import { GROUP_RELATIVE_ESTIMATORS } from "../advantages/index.js";
import { assignAdvantages, type AdvantageConfig } from "../assign-advantages.js";
import { awaitStep } from "../await-step.js";
import type { PolicyRef, TrainingBackend } from "../backend.js";
import { InfraErrorRateError } from "../errors/infra-error-rate-error.js";
import type { TrainConfig } from "../train-config.js";
import { transformEpisodes, withoutTruncated } from "../transforms/index.js";
import type { TrainingGroup } from "./run-rollout-group.js";
import { groupStaleness, stalenessStatistics, type BatchSelection } from "./select-batch.js";
import type { TrainStepRecord } from "./train-records.js";

export interface BatchUpdate {
  record: TrainStepRecord;
  policy: PolicyRef;
  /** The batch's episodes (solvers then judges, group by group), for `steps/<n>/episodes.jsonl`. */
  episodes: Episode[];
}

/**
 * Trains `selection.batch` on `backend` from `policy` as update `step`; `rolloutSeconds` is how long the batch took
 * to be ready. Throws InfraErrorRateError (after `onEpisodes` saved the batch) when too many solver rollouts failed.
 */
export async function trainOnBatch(
  step: number,
  selection: BatchSelection<TrainingGroup>,
  context: { config: TrainConfig; backend: TrainingBackend; policy: PolicyRef; rolloutSeconds: number; onEpisodes(episodes: Episode[]): void },
): Promise<BatchUpdate> {
  const { config, backend, policy } = context;
  const started = performance.now();
  const { batch } = selection;
  const solverEpisodes = batch.flatMap((group) => group.solverEpisodes);
  const episodes = batch.flatMap((group) => [...group.solverEpisodes, ...group.judgeEpisodes]);
  context.onEpisodes(episodes);
  assertInfraErrorRate(step, solverEpisodes, config.maxInfraErrorRate);

  const advantageConfig: AdvantageConfig = config.joint.enabled
    ? {
        ...config.advantages,
        byRole: { judge: config.joint.judgeEstimator, ...config.advantages.byRole },
        roleWeights: { judge: config.joint.weight, ...config.advantages.roleWeights },
      }
    : config.advantages;
  const roles = [...new Set(episodes.flatMap((episode) => episode.trajectories.map((trajectory) => trajectory.name)))];
  const batchBaselineRoles = roles.filter((role) => !GROUP_RELATIVE_ESTIMATORS.includes(advantageConfig.byRole[role] ?? advantageConfig.estimator));
  const { groups, metrics: transform } = transformEpisodes(episodes, { ...config.transform, batchBaselineRoles });
  const assigned = assignAdvantages(groups, advantageConfig);
  let sequences = assigned.sequences;
  if (config.transform.maskTruncated) {
    const masked = withoutTruncated(sequences, episodes);
    sequences = masked.sequences;
    transform.maskedTruncated = masked.maskedTrajectories;
    transform.sequences = sequences.length;
    transform.tokens = sequences.reduce((sum, sequence) => sum + sequence.tokens.length, 0);
    transform.trainedTokens = sequences.reduce((sum, sequence) => sum + sequence.lossMask.reduce((total, value) => total + value, 0), 0);
  }
  // Each row carries the version that sampled it (the oldest of its group's calls), for backends that bound it.
  const versionOf = new Map(batch.flatMap((group) => [...group.solverEpisodes, ...group.judgeEpisodes].map((episode) => [episode.id, group.oldestVersion] as const)));
  let update: Record<string, number> | null = null;
  let nextPolicy = policy;
  if (sequences.length > 0) {
    const { stepId } = await backend.submit({
      sequences: sequences.map((sequence) => ({ ...sequence, policyVersion: versionOf.get(sequence.episodeId) ?? policy.version })),
      loss: config.loss,
      lossAggregation: config.lossAggregation,
      merge: config.transform.merge,
      optimizer: config.optimizer,
      substeps: config.substeps,
    });
    update = (await awaitStep(backend, stepId)).metrics;
    nextPolicy = await backend.publish();
  }
  const scored = solverEpisodes.filter((episode) => episode.errorClass !== "infra_error");
  const judges = batch.map((group) => group.judge).filter((judge) => judge !== null);
  const mixedPairs = judges.reduce((sum, judge) => sum + judge.mixedPairs, 0);
  const judgeCalls = judges.reduce((sum, judge) => sum + judge.calls, 0);
  const record: TrainStepRecord = {
    kind: "train",
    step,
    policyVersion: policy.version,
    reward: mean(scored.map((episode) => episode.score.value)),
    accuracy: mean(scored.map((episode) => (episode.score.isCorrect ? 1 : 0))),
    judgeAccuracy: config.joint.enabled ? (mixedPairs === 0 ? null : judges.reduce((sum, judge) => sum + judge.mixedCorrect, 0) / mixedPairs) : null,
    judgeReward: config.joint.enabled ? (judgeCalls === 0 ? 0 : judges.reduce((sum, judge) => sum + judge.rewardSum, 0) / judgeCalls) : null,
    judgeParseErrors: config.joint.enabled ? judges.reduce((sum, judge) => sum + judge.parseErrors, 0) : null,
    advantage: assigned.statistics,
    advantageByRole: assigned.statisticsByRole,
    transform,
    tokens: transform.tokens,
    trainedTokens: transform.trainedTokens,
    update,
    staleness: {
      ...stalenessStatistics(batch, policy.version),
      oldestVersion: Math.min(policy.version, ...batch.map((group) => group.oldestVersion)),
      droppedGroups: selection.dropped.length,
      reweightedGroups: selection.reweighted.length,
    },
    groups: batch.map((group) => ({
      slot: group.slot,
      task: group.taskIndex,
      taskId: group.taskId,
      versions: [group.oldestVersion, group.newestVersion],
      finishedOrder: group.finishedOrder,
    })),
    droppedGroups: selection.dropped.map((group) => ({ slot: group.slot, task: group.taskIndex, staleness: groupStaleness(group, policy.version) })),
    rolloutSeconds: context.rolloutSeconds,
    trainSeconds: (performance.now() - started) / 1000,
    stepSeconds: context.rolloutSeconds + (performance.now() - started) / 1000,
  };
  return { record, policy: nextPolicy, episodes };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Stops training when more than `threshold` of the step's rollouts are infrastructure errors. */
function assertInfraErrorRate(step: number, episodes: readonly Episode[], threshold: number): void {
  const failed = episodes.filter((episode) => episode.errorClass === "infra_error");
  if (infraErrorRate(failed.length, episodes.length) <= threshold) return;
  throw new InfraErrorRateError(step, failed.length, episodes.length, threshold, failed.slice(0, 3).map((episode) => `${episode.id}: ${(episode.error ?? "").slice(0, 200)}`));
}
