/**
 * The SFT loop: epochs of seeded shuffled batches, cross-entropy on the masked (completion) tokens through the
 * TrainingBackend contract, a scheduled learning rate, validation loss and checkpoints every so many steps.
 */
import { createRng, shuffled } from "../../core/random.js";
import { awaitStep } from "../await-step.js";
import { LossConfigSchema, type BatchSequence, type TrainBatch, type TrainingBackend } from "../backend.js";
import { scheduledLearningRate, type LearningRateSchedule } from "./learning-rate-schedule.js";
import type { SftSequence } from "./tokenize-sft-row.js";

/** One line of `metrics.jsonl`. */
export type SftRecord =
  | { kind: "train"; step: number; epoch: number; loss: number; tokens: number; sequences: number; learningRate: number; seconds: number }
  | { kind: "validation"; step: number; loss: number; tokens: number };

/** The backend, the tokenized rows, the optimisation settings, and the callbacks for checkpoints and records. */
export interface SftOptions {
  backend: TrainingBackend;
  /** Each row's sequences (a row is never split across batches). */
  train: readonly (readonly SftSequence[])[];
  val: readonly (readonly SftSequence[])[];
  batchSize: number;
  epochs: number;
  learningRate: number;
  schedule: LearningRateSchedule;
  warmupSteps: number;
  /** Validation loss every n steps (and at the start and the end); 0 = only at the start and the end. */
  valEvery: number;
  /** Checkpoint every n steps (and at the end). */
  saveEvery: number;
  seed: number;
  /** Steps already done by the run being resumed (its checkpoint holds their weights). */
  completedSteps: number;
  checkpoint(step: number): Promise<void>;
  onRecord(record: SftRecord): void;
  /** Stops after the current step (Ctrl-C). */
  signal?: AbortSignal;
}

/** Optimizer steps one epoch takes. */
export function stepsPerEpoch(rows: number, batchSize: number): number {
  return Math.ceil(rows / batchSize);
}

// Cross-entropy learns tokens as they are: no sampler logprobs, advantage 1 (Tinker's cross_entropy ignores both).
const toBatchSequence = (sequence: SftSequence): BatchSequence => ({
  tokens: sequence.tokens,
  lossMask: sequence.lossMask,
  samplerLogprobs: sequence.tokens.map(() => 0),
  advantage: 1,
});

function batchOf(rows: readonly (readonly SftSequence[])[], learningRate: number): TrainBatch {
  return {
    sequences: rows.flat().map(toBatchSequence),
    loss: LossConfigSchema.parse({ kind: "cross_entropy" }),
    lossAggregation: "token-mean",
    merge: "prefix",
    optimizer: { learningRate, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0, gradClipNorm: 1 },
    substeps: 1,
  };
}

/** Validation loss over `rows` (mean over their trained tokens). */
async function validationLoss(backend: TrainingBackend, rows: readonly (readonly SftSequence[])[]): Promise<{ loss: number; tokens: number }> {
  if (!backend.forward) throw new Error(`backend "${backend.name}" cannot compute a loss without training; drop --val-fraction`);
  return backend.forward(batchOf(rows, 1));
}

/** Runs the remaining steps; returns the last step done. Row order in epoch e is fixed by seed + e, so a resumed run replays it. */
export async function runSft(options: SftOptions): Promise<number> {
  const perEpoch = stepsPerEpoch(options.train.length, options.batchSize);
  const totalSteps = perEpoch * options.epochs;
  const started = performance.now();
  const validate = async (step: number) => {
    if (options.val.length === 0) return;
    options.onRecord({ kind: "validation", step, ...(await validationLoss(options.backend, options.val)) });
  };
  if (options.completedSteps === 0) await validate(0);
  let step = options.completedSteps;
  for (let epoch = Math.floor(step / perEpoch); epoch < options.epochs && !options.signal?.aborted; epoch++) {
    const order = shuffled(options.train, createRng(options.seed + epoch));
    for (let index = step - epoch * perEpoch; index < perEpoch && !options.signal?.aborted; index++) {
      step += 1;
      const rows = order.slice(index * options.batchSize, (index + 1) * options.batchSize);
      const learningRate = scheduledLearningRate(step, totalSteps, options.learningRate, options.schedule, options.warmupSteps);
      const batch = batchOf(rows, learningRate);
      const { stepId } = await options.backend.submit(batch);
      const status = await awaitStep(options.backend, stepId);
      const tokens = batch.sequences.reduce((sum, sequence) => sum + sequence.lossMask.reduce((total, mask) => total + mask, 0), 0);
      options.onRecord({
        kind: "train",
        step,
        epoch: epoch + 1,
        loss: status.metrics.loss ?? Number.NaN,
        tokens,
        sequences: batch.sequences.length,
        learningRate,
        seconds: (performance.now() - started) / 1000,
      });
      const isLast = step === totalSteps;
      if (options.valEvery > 0 && step % options.valEvery === 0 && !isLast) await validate(step);
      if ((options.saveEvery > 0 && step % options.saveEvery === 0) || isLast) await options.checkpoint(step);
    }
  }
  if (step === totalSteps && step > options.completedSteps) await validate(step);
  else if (step > options.completedSteps) await options.checkpoint(step);
  return step;
}
