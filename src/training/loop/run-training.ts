/**
 * The training loop: rollout groups (a task's attempts, traced by the gateway, scored, and judged by the same policy
 * in joint training) come from the rollout scheduler; each update trains on a batch of them (transform → advantages →
 * backend update) and publishes a new policy version; validation, checkpoints and resume around it. With
 * `async.maxStaleness` 0 the scheduler starts a step's rollouts only after the update before it (the synchronous
 * loop); above 0 rollouts go on while updates run, each group stamped with the versions that sampled it.
 */
import type { RunResources } from "../../core/run-resources.js";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Cookbook } from "../../core/cookbook.js";
import type { Episode } from "../../core/episode.js";
import type { Task } from "../../core/task.js";
import { createRng } from "../../core/random.js";
import { JsonlAppender } from "../../runs/append-only-jsonl.js";
import { runPaths } from "../../runs/run-directory.js";
import { keepMetricsUpTo, readTrainState, trainingRunPaths, trainingStepDirectory, writeTrainState } from "../../runs/training-run-files.js";
import type { TrainingBackend } from "../backend.js";
import { pinnedModelName } from "../backends/pinned-model-name.js";
import { startGateway, type Gateway } from "../../gateway/gateway-server.js";
import type { TrainConfig } from "../train-config.js";
import { checkpointFolder } from "../checkpoint-folder.js";
import { carriedGroups, RolloutLog } from "./rollout-log.js";
import { PriorityLimit } from "./priority-limit.js";
import { groupKeyText, RolloutScheduler } from "./rollout-scheduler.js";
import { runRolloutGroup, type TrainingGroup } from "./run-rollout-group.js";
import { runValidation } from "./run-validation.js";
import { sampleTasks } from "./sample-tasks.js";
import { trainOnBatch } from "./train-on-batch.js";
import { TrainRecordLineSchema, type TrainRecord, type TrainStepRecord, type ValidationRecord } from "./train-records.js";

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
  /** Aborted (Ctrl-C): rollouts stop, the update under way finishes, and a checkpoint of it is saved. */
  signal: AbortSignal;
  /** The run's sandbox and pools (opened and closed by the caller), lent to every flow and evaluator. */
  resources: RunResources;
  onRecord?: (record: TrainRecord) => void;
  /** Called when a phase starts, for a progress line ("step 3/30: rollouts"). */
  onPhase?: (phase: string) => void;
  /** Called as each validation episode, then each judge verdict, lands: the step validated, how many are done of how many. */
  onValidationProgress?: (step: number, done: number, total: number, unit?: "episodes" | "verdicts") => void;
  /** A line the user should read (what a resume found, a checkpoint taken at an interrupt). */
  onNotice?: (line: string) => void;
}

/** Runs the loop to `config.steps` updates (or until the signal); returns every record written. */
export async function runTraining(options: TrainingOptions): Promise<TrainRecord[]> {
  const { config, backend, directory } = options;
  const files = trainingRunPaths(directory);
  const records: TrainRecord[] = [];
  // Opened once the file holds what this invocation continues from (below); one write per line.
  let metrics: JsonlAppender<TrainRecord> | undefined;
  const started = performance.now();
  const emit = (produced: TrainRecord) => {
    const record = { ...produced, elapsedSeconds: (performance.now() - started) / 1000 };
    records.push(record);
    metrics!.append(record);
    options.onRecord?.(record);
  };
  const isAsync = config.async.maxStaleness > 0;
  const sampling = { temperature: config.sampling.temperature, topP: config.sampling.topP, maxTokens: config.sampling.maxTokens };
  let openedGateway: Gateway | undefined;
  let scheduler: RolloutScheduler<TrainingGroup> | undefined;
  let rolloutLog: RolloutLog | undefined;
  // Rollouts stop on Ctrl-C, and when the loop ends for any reason: a group still running then is not waited for.
  const stopRollouts = new AbortController();
  const rolloutSignal = AbortSignal.any([options.signal, stopRollouts.signal]);
  // From open() on, the backend's threads and servers are closed in the finally, a failed start included.
  try {
    let policy = await backend.open({ baseModel: options.baseModel, seed: config.seed });
    if (!policy.openaiBaseUrl) throw new Error(`backend "${backend.name}" serves no OpenAI-compatible sampler; rllm train needs one for agent rollouts`);
    // Async rollouts name their version in the model (pinnedModelName), so the gateway leaves the model as asked.
    const gateway = await startGateway({ upstream: policy.openaiBaseUrl, model: isAsync ? undefined : policy.modelId, sampling });
    openedGateway = gateway;
    let startStep = 0;
    // The step-0 validation: later ones report their pass@1 gain over it (paired by task) and re-judge its pairs.
    let baseline: ValidationRecord | undefined;
    let kept: TrainRecord[] = [];
    const state = options.resume ? readTrainState(files.state) : undefined;
    if (state) {
      policy = await backend.restore(path.join(directory, state.checkpoint));
      startStep = state.step;
    }
    // A resume before the first checkpoint starts from the base weights (version 0) but keeps the step-0 validation
    // and the rollouts version 0 sampled: no work is lost or silently redone.
    if (options.resume) {
      kept = keepMetricsUpTo(files.metrics, startStep, TrainRecordLineSchema);
      baseline = kept.find(isStartValidation);
    } else {
      writeFileSync(files.metrics, "");
    }
    metrics = new JsonlAppender<TrainRecord>(files.metrics);
    const logFile = RolloutLog.at(directory);
    const settled = new Set(kept.filter(isTrainRecord).flatMap((record) => [...(record.groups ?? []), ...(record.droppedGroups ?? [])].map((group) => groupKeyText({ slot: group.slot, taskIndex: group.task }))));
    const { carried, discarded } = options.resume ? carriedGroups(logFile, settled, policy.version) : { carried: [], discarded: 0 };
    if (options.resume) {
      const from = state ? `step ${startStep} (checkpoint ${state.checkpoint})` : `step 0: ${directory} has no checkpoint yet, so the base model`;
      options.onNotice?.(`resuming from ${from}; ${carried.length} finished rollout groups carried over, ${discarded} sampled by versions the checkpoint lacks run again`);
    }
    rolloutLog = new RolloutLog(logFile);
    if (!options.resume) rolloutLog.rewrite([]);

    // Which model name a call asks for, and the version it stands for; versions pinned by running episodes stay served.
    const inUse = new Map<number, number>();
    const modelForEpisode = () => {
      const version = policy.version;
      inUse.set(version, (inUse.get(version) ?? 0) + 1);
      const pinned = isAsync && !config.async.partialRollouts && backend.capabilities().asyncRollouts === "pinned";
      return { model: pinned ? pinnedModelName(policy.modelId, version) : policy.modelId, version };
    };
    const release = (versions: readonly number[]) => {
      for (const version of versions) inUse.set(version, (inUse.get(version) ?? 1) - 1);
    };
    const limit = new PriorityLimit(config.concurrency);
    const groupsPerUpdate = Math.min(config.tasksPerStep, options.trainTasks.length);
    scheduler = new RolloutScheduler<TrainingGroup>({
      slotTaskIds: (slot) => slotTasks(options.trainTasks, config, slot).map((task) => task.id),
      runGroup: async ({ slot, taskIndex }) => {
        const task = slotTasks(options.trainTasks, config, slot)[taskIndex]!;
        const context = { config, cookbook: options.cookbook, gateway, sampling, limit, signal: rolloutSignal, resources: options.resources, modelForEpisode, release, currentVersion: () => policy.version };
        return runRolloutGroup(task, slot, taskIndex, context);
      },
      onFinished: (group) => rolloutLog!.append(group),
      maxStaleness: config.async.maxStaleness,
      updates: config.steps,
      groupsPerUpdate,
      version: policy.version,
      settled,
      carried,
      updatesDone: startStep,
    });

    const validate = async (step: number) => {
      options.onPhase?.(`validation after ${step} steps`);
      // No update runs during a validation, so the plain name (the newest version) is the version validated.
      const record = await runValidation(step, {
        config,
        cookbook: options.cookbook,
        testTasks: options.testTasks,
        gateway,
        model: policy.modelId,
        signal: options.signal,
        resources: options.resources,
        baseline,
        onProgress: (unit, done, total) => options.onValidationProgress?.(step, done, total, unit),
      });
      if (step === 0) baseline = record;
      emit(record);
    };
    const isValidationStep = (step: number) => step % config.validation.every === 0 || step === config.steps;
    let checkpointed = startStep;
    const checkpoint = async (step: number) => {
      const folder = path.join("checkpoints", checkpointFolder(step));
      await backend.checkpoint(path.join(directory, folder));
      writeTrainState(files.state, { step, checkpoint: folder, policyVersion: policy.version });
      // Groups trained so far are in the checkpoint; the log keeps the ones still to train.
      rolloutLog!.rewrite(scheduler!.pending());
      checkpointed = step;
    };

    let step = startStep;
    try {
      // Async rollouts start at once; the synchronous loop's first ones after the validation it may run first. A
      // resume at a validation step whose validation was cut short runs it first (step 0 included).
      if (isAsync) scheduler.start();
      if (isValidationStep(startStep) && !kept.some((record) => record.kind === "validation" && record.step === startStep)) await validate(startStep);
      if (!isAsync) scheduler.start();
      while (step < config.steps && !options.signal.aborted) {
        const waited = performance.now();
        options.onPhase?.(`step ${step + 1}/${config.steps}: rollouts`);
        const selection = await scheduler.nextBatch(config.async.staleGroups);
        options.onPhase?.(`step ${step + 1}/${config.steps}: update`);
        const update = await trainOnBatch(step + 1, selection, {
          config,
          backend,
          policy,
          rolloutSeconds: (performance.now() - waited) / 1000,
          onEpisodes: (episodes) => saveStepEpisodes(directory, step + 1, episodes),
        });
        step += 1;
        policy = update.policy;
        await backend.retainVersions?.([policy.version, ...[...inUse].filter(([, count]) => count > 0).map(([version]) => version)]);
        // Rollouts of later steps start now (async), or after this step's validation and checkpoint (synchronous).
        if (isAsync) scheduler.setVersion(policy.version);
        emit(update.record);
        if (isValidationStep(step)) await validate(step);
        if (step % config.checkpointEvery === 0 || step === config.steps) await checkpoint(step);
        if (!isAsync) scheduler.setVersion(policy.version);
      }
    } catch (error) {
      // Ctrl-C cancels the rollouts and validation under way; the updates made so far are kept below.
      if (!options.signal.aborted) throw error;
    }
    if (options.signal.aborted && step > checkpointed) {
      await checkpoint(step);
      options.onNotice?.(`checkpoint of step ${step} saved at the interrupt`);
    }
  } finally {
    stopRollouts.abort(new Error("training ended"));
    await scheduler?.close();
    rolloutLog?.close();
    metrics?.close();
    await openedGateway?.close();
    await backend.close();
  }
  return records;
}

/** The tasks drawn for `slot` (a step): one generator per slot, so a resumed run draws the same ones. */
function slotTasks(tasks: readonly Task[], config: TrainConfig, slot: number): Task[] {
  return sampleTasks(tasks, config.tasksPerStep, createRng(config.seed * 1_000_003 + slot));
}

/** Each step's episodes in `<out>/steps/<n>/episodes.jsonl`, a run directory `rllm export` reads. */
function saveStepEpisodes(directory: string, step: number, episodes: readonly Episode[]): void {
  const stepDirectory = trainingStepDirectory(directory, step);
  mkdirSync(stepDirectory, { recursive: true });
  // One write for the whole step: an open and close per episode cost the loop's thread a few ms each.
  writeFileSync(runPaths(stepDirectory).episodes, episodes.map((episode) => `${JSON.stringify(episode)}\n`).join(""));
}

/** The validation before training (step 0), which later validations compare with. */
function isStartValidation(record: TrainRecord): record is ValidationRecord {
  return record.kind === "validation" && record.step === 0;
}

function isTrainRecord(record: TrainRecord): record is TrainStepRecord {
  return record.kind === "train";
}
