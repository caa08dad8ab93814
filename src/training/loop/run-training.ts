/**
 * The training loop: sample tasks → rollouts with the current policy (traced by the gateway) → score → (joint) judge
 * its own solutions → transform → advantages → backend update → publish; validation, checkpoints and resume around it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Cookbook } from "../../core/cookbook.js";
import type { Episode } from "../../core/episode.js";
import type { Task } from "../../core/task.js";
import { appendEpisode } from "../../runs/episode-log.js";
import { infraErrorRate } from "../../metrics/infra-error-rate.js";
import { InfraErrorRateError } from "../errors/infra-error-rate-error.js";
import { JsonlAppender } from "../../runs/append-only-jsonl.js";
import { runPaths } from "../../runs/run-directory.js";
import { keepMetricsUpTo, readTrainState, trainingRunPaths, trainingStepDirectory, writeTrainState } from "../../runs/training-run-files.js";
import { accuracyStats } from "../../metrics/accuracy.js";
import { createRng } from "../../core/random.js";
import { GROUP_RELATIVE_ESTIMATORS } from "../advantages/index.js";
import { assignAdvantages, type AdvantageConfig } from "../assign-advantages.js";
import { awaitStep } from "../await-step.js";
import type { PolicyRef, TrainingBackend } from "../backend.js";
import { startGateway, type Gateway } from "../../gateway/gateway-server.js";
import type { TrainConfig } from "../train-config.js";
import { transformEpisodes } from "../transforms/index.js";
import { judgeRollouts, type JudgeRolloutResult } from "./judge-rollouts.js";
import { pairedGain } from "./paired-gain.js";
import { rolloutEpisodes } from "./rollout-episodes.js";
import { sampleTasks } from "./sample-tasks.js";
import { TrainRecordLineSchema, type TrainRecord, type TrainStepRecord, type ValidationRecord } from "./train-records.js";
import { byTaskIndex, shareRightByPair, validatePolicy, type ValidationResult } from "./validate-policy.js";
import { cookbookJudgeKind } from "../../tournament/cookbook-judge-kind.js";
import { checkpointFolder } from "../checkpoint-folder.js";

export interface TrainingOptions {
  config: TrainConfig;
  cookbook: Cookbook;
  trainTasks: readonly Task[];
  testTasks: readonly Task[];
  backend: TrainingBackend;
  baseModel: string;
  directory: string;
  /** Continue from the last checkpoint in `directory`. */
  resume: boolean;
  signal: AbortSignal;
  onRecord?: (record: TrainRecord) => void;
  /** Called when a phase starts, for a progress line ("step 3/30: rollouts"). */
  onPhase?: (phase: string) => void;
  /** Called as each validation episode finishes: the step validated, the episodes done and their count. */
  onValidationProgress?: (step: number, done: number, total: number) => void;
}

/** Runs the loop to `config.steps` updates; returns every record written. */
export async function runTraining(options: TrainingOptions): Promise<TrainRecord[]> {
  const { config, backend, directory } = options;
  const files = trainingRunPaths(directory);
  const records: TrainRecord[] = [];
  // Opened once the file holds what this invocation continues from (below); one write per line.
  let metrics: JsonlAppender<TrainRecord> | undefined;
  const emit = (record: TrainRecord) => {
    records.push(record);
    metrics!.append(record);
    options.onRecord?.(record);
  };
  let policy = await backend.open({ baseModel: options.baseModel, seed: config.seed });
  if (!policy.openaiBaseUrl) throw new Error(`backend "${backend.name}" serves no OpenAI-compatible sampler; rllm train needs one for agent rollouts`);
  const sampling = { temperature: config.sampling.temperature, topP: config.sampling.topP, maxTokens: config.sampling.maxTokens };
  const gateway = await startGateway({ upstream: policy.openaiBaseUrl, model: policy.modelId, sampling });
  try {
    let startStep = 0;
    // The step-0 validation: later ones report their pass@1 gain over it (paired by task) and re-judge its pairs.
    let baseline: ValidationRecord | undefined;
    const state = options.resume ? readTrainState(files.state) : undefined;
    if (state) {
      policy = await backend.restore(path.join(directory, state.checkpoint));
      startStep = state.step;
      baseline = keepMetricsUpTo(files.metrics, startStep, TrainRecordLineSchema).find(isStartValidation);
    } else {
      writeFileSync(files.metrics, "");
    }
    metrics = new JsonlAppender<TrainRecord>(files.metrics);
    const validate = async (step: number) => {
      options.onPhase?.(`validation after ${step} steps`);
      const record = await runValidation(options, gateway, policy, step, baseline);
      if (step === 0) baseline = record;
      emit(record);
    };
    if (startStep === 0) await validate(0);
    for (let step = startStep + 1; step <= config.steps; step++) {
      if (options.signal.aborted) break;
      const record = await trainStep(options, gateway, policy, step);
      policy = record.policy;
      emit(record.record);
      if (step % config.validation.every === 0 || step === config.steps) await validate(step);
      if (step % config.checkpointEvery === 0 || step === config.steps) {
        const checkpoint = path.join("checkpoints", checkpointFolder(step));
        await backend.checkpoint(path.join(directory, checkpoint));
        writeTrainState(files.state, { step, checkpoint });
      }
    }
  } finally {
    metrics?.close();
    await gateway.close();
    await backend.close();
  }
  return records;
}

async function trainStep(
  options: TrainingOptions,
  gateway: Gateway,
  policy: PolicyRef,
  step: number,
): Promise<{ record: TrainStepRecord; policy: PolicyRef }> {
  const { config, backend } = options;
  const started = performance.now();
  // One generator per step, so a resumed run draws the same tasks and pairs.
  const random = createRng(config.seed * 1_000_003 + step);
  const tasks = sampleTasks(options.trainTasks, config.tasksPerStep, random);
  const stepLabel = `step ${step}/${config.steps}`;
  options.onPhase?.(`${stepLabel}: ${tasks.length} tasks × ${config.groupSize} rollouts`);
  const common = {
    gateway,
    model: policy.modelId,
    sampling: { temperature: config.sampling.temperature, topP: config.sampling.topP, maxTokens: config.sampling.maxTokens },
    concurrency: config.concurrency,
    signal: options.signal,
  };
  const solverEpisodes = await rolloutEpisodes(tasks, {
    ...common,
    cookbook: options.cookbook,
    seed: config.seed * 7919 + step,
    attempts: config.groupSize,
    timeoutMs: config.timeoutSeconds * 1000,
    sessionPrefix: `step-${step}`,
  });
  let judged: JudgeRolloutResult | undefined;
  if (config.joint.enabled) {
    options.onPhase?.(`${stepLabel}: judging pairs`);
    judged = await judgeRollouts(tasks, solverEpisodes, {
      ...common,
      judgeKind: cookbookJudgeKind(options.cookbook.name),
      pairsPerTask: config.joint.pairsPerTask,
      pairing: config.joint.pairing,
      samplesPerPair: config.joint.samplesPerPair,
      random,
      // The solvers' seed: judge attempts are numbered after the solver attempts, so every call's derived seed differs.
      seed: config.seed * 7919 + step,
      sessionPrefix: `step-${step}`,
    });
  }
  const episodes = [...solverEpisodes, ...(judged?.episodes ?? [])];
  saveStepEpisodes(options.directory, step, episodes);
  // After the episodes are saved, so that the failures can be read in steps/<n>/episodes.jsonl.
  assertInfraErrorRate(step, solverEpisodes, config.maxInfraErrorRate);
  const rolloutSeconds = (performance.now() - started) / 1000;

  options.onPhase?.(`${stepLabel}: update`);
  const advantageConfig: AdvantageConfig = config.joint.enabled
    ? {
        ...config.advantages,
        byRole: { judge: config.joint.judgeEstimator, ...config.advantages.byRole },
        roleWeights: { judge: config.joint.weight, ...config.advantages.roleWeights },
      }
    : config.advantages;
  const roles = [...new Set(episodes.flatMap((episode) => episode.trajectories.map((trajectory) => trajectory.name)))];
  const batchBaselineRoles = roles.filter(
    (role) => !GROUP_RELATIVE_ESTIMATORS.includes(advantageConfig.byRole[role] ?? advantageConfig.estimator),
  );
  const { groups, metrics: transform } = transformEpisodes(episodes, { ...config.transform, batchBaselineRoles });
  const { sequences, statistics, statisticsByRole } = assignAdvantages(groups, advantageConfig);
  const trainStarted = performance.now();
  let update: Record<string, number> | null = null;
  let nextPolicy = policy;
  if (sequences.length > 0) {
    const { stepId } = await backend.submit({
      sequences: sequences.map((sequence) => ({ ...sequence, policyVersion: policy.version })),
      loss: config.loss,
      lossAggregation: config.lossAggregation,
      merge: config.transform.merge,
      optimizer: config.optimizer,
      substeps: config.substeps,
    });
    update = (await awaitStep(backend, stepId)).metrics;
    nextPolicy = await backend.publish();
  }
  const solverRewards = solverEpisodes.filter((episode) => episode.errorClass !== "infra_error");
  const record: TrainStepRecord = {
    kind: "train",
    step,
    policyVersion: policy.version,
    reward: mean(solverRewards.map((episode) => episode.score.value)),
    accuracy: mean(solverRewards.map((episode) => (episode.score.isCorrect ? 1 : 0))),
    judgeAccuracy: judged ? (judged.mixedPairs === 0 ? null : judged.mixedCorrect / judged.mixedPairs) : null,
    judgeReward: judged ? judged.meanReward : null,
    judgeParseErrors: judged ? judged.parseErrors : null,
    advantage: statistics,
    advantageByRole: statisticsByRole,
    transform,
    tokens: transform.tokens,
    trainedTokens: transform.trainedTokens,
    update,
    rolloutSeconds,
    trainSeconds: (performance.now() - trainStarted) / 1000,
    stepSeconds: (performance.now() - started) / 1000,
  };
  return { record, policy: nextPolicy };
}

async function runValidation(
  options: TrainingOptions,
  gateway: Gateway,
  policy: PolicyRef,
  step: number,
  baseline: ValidationRecord | undefined,
): Promise<ValidationRecord> {
  const { config } = options;
  const started = performance.now();
  const validation = config.validation;
  const result = await validatePolicy(options.testTasks.slice(0, validation.tasks), {
    cookbook: options.cookbook,
    gateway,
    model: policy.modelId,
    sampling: { temperature: config.sampling.temperature, topP: config.sampling.topP, maxTokens: config.sampling.maxTokens },
    // The same seed at every validation: differences between validations come from the weights, not the draws.
    seed: config.seed * 7919 + 999_983,
    attempts: validation.attempts,
    judgePairs: validation.judgePairs,
    judgeSamples: validation.judgeSamples,
    rerankN: validation.rerankN,
    rerankBudget: validation.rerankBudget,
    concurrency: config.concurrency,
    timeoutMs: config.timeoutSeconds * 1000,
    random: createRng(config.seed + 17),
    signal: options.signal,
    sessionPrefix: `validation-${step}`,
    onEpisodeDone: (done, total) => options.onValidationProgress?.(step, done, total),
    ...(step > 0 && baseline?.startJudgePairs ? { startPairs: baseline.startJudgePairs.pairs } : {}),
  });
  return {
    kind: "validation",
    step,
    passAt1: result.passAt1,
    passAt1ByTask: result.passAt1ByTask,
    passAt1Gain: step > 0 && baseline ? pairedGain(baseline.passAt1ByTask, result.passAt1ByTask) : null,
    judgeAccuracy: result.judgeAccuracy ?? null,
    judgeOnStartPairs: judgeOnStartPairs(step, result, baseline),
    ...(step === 0 && result.judgePairs ? { startJudgePairs: result.judgePairs } : {}),
    rerankAt1: result.rerankAt1 ?? null,
    seconds: (performance.now() - started) / 1000,
  };
}

// The judge's accuracy on the step-0 pairs now, and its change since step 0 paired by pair (each pair's share of
// right verdicts over its samples).
function judgeOnStartPairs(step: number, result: ValidationResult, baseline: ValidationRecord | undefined): ValidationRecord["judgeOnStartPairs"] {
  if (step === 0) return result.judgePairs ? { accuracy: result.judgeAccuracy!, gain: null } : null;
  const start = baseline?.startJudgePairs;
  if (!start || !result.startPairVerdicts) return null;
  // Records written before judgeSamples existed hold one verdict per pair.
  const samples = start.samplesPerPair ?? 1;
  const taskCount = Math.max(0, ...start.pairs.map((pair) => pair.taskIndex + 1));
  return {
    accuracy: accuracyStats(byTaskIndex(start.pairs, result.startPairVerdicts, taskCount, samples)),
    gain: pairedGain(shareRightByPair(start.verdicts, samples), shareRightByPair(result.startPairVerdicts, samples)),
  };
}

/** Each step's episodes in `<out>/steps/<n>/episodes.jsonl`, a run directory `rllm export` reads. */
function saveStepEpisodes(directory: string, step: number, episodes: readonly Episode[]): void {
  const stepDirectory = trainingStepDirectory(directory, step);
  mkdirSync(stepDirectory, { recursive: true });
  const file = runPaths(stepDirectory).episodes;
  writeFileSync(file, "");
  for (const episode of episodes) appendEpisode(file, episode);
}

/** The validation before training (step 0), which later validations compare with. */
function isStartValidation(record: TrainRecord): record is ValidationRecord {
  return record.kind === "validation" && record.step === 0;
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
