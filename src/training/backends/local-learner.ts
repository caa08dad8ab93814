/**
 * The local backend's learner: the embedded tiny model's TrainableModel (tfjs on wasm, micro-batched gradients, Adam)
 * trained on TrainBatches with the policy losses, truncated importance sampling, and per step the learner-vs-sampler
 * logprob mismatch and importance ratio on the trained tokens. It runs on a thread of its own (learner-thread.ts), so
 * the main thread keeps driving rollouts while it trains.
 */
import * as tf from "@tensorflow/tfjs";
import type { TinyModelConfig } from "../../models/tiny/model-config.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { packTargetValues } from "../../models/tiny/token-batch.js";
import { TrainableModel, type LearnerState, type MicroBatchLoss } from "../../models/tiny/trainable-model.js";
import { createRng, type Rng } from "../../core/random.js";
import type { BatchSequence, TrainBatch } from "../backend.js";
import { importanceWeights } from "./importance-weights.js";
import { lossDenominators, policyLoss, type LossDenominators } from "./policy-loss.js";

/** What one step reports. */
export interface StepMetrics {
  loss: number;
  clipFraction: number;
  gradNorm: number;
  /** Mean and max |learner − sampler| logprob over trained tokens, before the update. */
  logprobMismatchMean: number;
  logprobMismatchMax: number;
  /** Mean (sampler − learner) logprob over trained tokens: an estimate of KL(sampler ‖ learner). */
  samplerLearnerKl: number;
  /** Mean k3 KL(learner ‖ reference) over trained tokens, before the update; only when loss.klCoef > 0. */
  klToReference?: number;
  /** Share of trained tokens whose entropy reached loss.minEntropy (kept for the policy gradient); only when it is > 0. */
  selectedTokenFraction?: number;
  /**
   * The importance ratio exp(trainer − sampler) over trained tokens before the update (the trainer's logprobs
   * recomputed when loss.tisCap is set, else the first substep's): its mean, its largest value, and the share above
   * loss.tisCap (0 without a cap).
   */
  importanceRatioMean: number;
  importanceRatioMax: number;
  importanceRatioClippedShare: number;
  sequences: number;
  trainedTokens: number;
  substeps: number;
}

/**
 * Padded positions (rows × longest row) in one forward/backward pass. Attention keeps [rows, heads, T, T] per layer
 * alive for the backward pass; a whole batch of ~380 judge and solver rows at T = 104 ran the wasm heap out of bounds.
 */
export const MICRO_BATCH_POSITIONS = 8192;

type RatioMetrics = Pick<StepMetrics, "importanceRatioMean" | "importanceRatioMax" | "importanceRatioClippedShare">;

/** A batch row as the learner trains it: the ratio's denominator (sampler or proximal logprobs) and, with TIS, its weights. */
interface LearnerRow extends BatchSequence {
  ratioDenominator: readonly number[];
  importanceWeights?: readonly number[];
}

export class LocalLearner {
  private constructor(
    private readonly model: TrainableModel,
    private readonly config: TinyModelConfig,
    private readonly microBatchPositions: number,
  ) {}

  /** A learner on `weights` (also its KL reference) with fresh Adam moments. */
  static async create(config: TinyModelConfig, weights: ModelWeights, microBatchPositions = MICRO_BATCH_POSITIONS): Promise<LocalLearner> {
    return new LocalLearner(await TrainableModel.fromWeights(config, weights), config, microBatchPositions);
  }

  /** One update on `batch` (checked by the caller): `substeps` optimizer steps over its rows, and what they report. */
  train(batch: TrainBatch): StepMetrics {
    const { rows, ratio } = this.learnerRows(batch);
    const chunkSize = Math.ceil(rows.length / Math.max(1, batch.substeps));
    const totals: StepMetrics = {
      loss: 0,
      clipFraction: 0,
      gradNorm: 0,
      logprobMismatchMean: 0,
      logprobMismatchMax: 0,
      samplerLearnerKl: 0,
      importanceRatioMean: 0,
      importanceRatioMax: 0,
      importanceRatioClippedShare: 0,
      ...ratio,
      sequences: batch.sequences.length,
      trainedTokens: batch.sequences.reduce((sum, sequence) => sum + sequence.lossMask.reduce((a, b) => a + b, 0), 0),
      substeps: 0,
    };
    for (let start = 0; start < rows.length; start += chunkSize) {
      // Only the first chunk is measured before any update of this step, so its mismatch is the sampler's.
      const metrics = this.trainChunk(rows.slice(start, start + chunkSize), batch, start === 0);
      totals.loss += metrics.loss!;
      totals.clipFraction += metrics.clipFraction!;
      totals.gradNorm = Math.max(totals.gradNorm, metrics.gradNorm!);
      // The ratio's figures come from here only without TIS (then learnerRows measured them before the step).
      if (start === 0) Object.assign(totals, definedOnly(metrics, ["logprobMismatchMean", "logprobMismatchMax", "samplerLearnerKl", "klToReference", "selectedTokenFraction", "importanceRatioMean", "importanceRatioMax", "importanceRatioClippedShare"]));
      totals.substeps += 1;
    }
    totals.loss /= Math.max(totals.substeps, 1);
    totals.clipFraction /= Math.max(totals.substeps, 1);
    return totals;
  }

  /** The cross-entropy of `sequences`' trained tokens without an update (their mean, and how many there were). */
  forward(sequences: readonly BatchSequence[]): { loss: number; tokens: number } {
    let negativeLogprob = 0;
    let tokens = 0;
    const logprobs = this.logprobs(sequences);
    sequences.forEach((sequence, row) => {
      // Token 0 is never predicted, like the mask.
      for (let token = 1; token < sequence.tokens.length; token++) {
        negativeLogprob -= logprobs[row]![token]! * sequence.lossMask[token]!;
        tokens += sequence.lossMask[token]!;
      }
    });
    return { loss: negativeLogprob / Math.max(tokens, 1), tokens };
  }

  state(): LearnerState {
    return this.model.state();
  }

  restoreState(state: LearnerState): void {
    this.model.restoreState(state);
  }

  weights(): ModelWeights {
    return this.model.weights();
  }

  dispose(): void {
    this.model.dispose();
  }

  // One optimizer step on `rows`; the learner sums gradients over micro-batches of a bounded number of padded
  // positions, so memory stays bounded however large the batch (the wasm heap cannot grow past a few GB).
  private trainChunk(rows: readonly LearnerRow[], batch: TrainBatch, measureMismatch: boolean): Partial<StepMetrics> {
    const denominators = lossDenominators(rows.map((row) => row.lossMask), batch.lossAggregation);
    // clip_cov's draw among its candidates: seeded by the optimizer step, so a resumed run draws the same.
    const random = createRng(this.model.state().adamStep * 7919 + 17);
    const result = this.model.accumulatedStep(rows, policyMicroBatchLoss(batch, denominators, random), {
      microBatchPositions: this.microBatchPositions,
      referenceLogprobs: batch.loss.klCoef > 0,
      minEntropy: batch.loss.minEntropy,
      learningRate: batch.optimizer.learningRate,
      beta1: batch.optimizer.beta1,
      beta2: batch.optimizer.beta2,
      epsilon: batch.optimizer.epsilon,
      weightDecay: batch.optimizer.weightDecay,
      clipNorm: batch.optimizer.gradClipNorm ?? Number.POSITIVE_INFINITY,
    });
    let trainedTokens = 0;
    let clippedTokens = 0;
    let klSum = 0;
    let selectedTokens = 0;
    for (const micro of result.microBatches) {
      trainedTokens += micro.trainedTokens;
      clippedTokens += micro.metrics.clipFraction! * micro.trainedTokens;
      klSum += micro.metrics.klToReference! * micro.trainedTokens;
      selectedTokens += micro.selectedTokens;
    }
    const count = Math.max(trainedTokens, 1);
    const metrics: Partial<StepMetrics> = { loss: result.loss, clipFraction: clippedTokens / count, gradNorm: result.gradientNorm };
    if (batch.loss.klCoef > 0) metrics.klToReference = klSum / count;
    if (batch.loss.minEntropy > 0) metrics.selectedTokenFraction = selectedTokens / count;
    if (measureMismatch) {
      const drift = mismatch(rows, result.logprobs);
      Object.assign(metrics, { logprobMismatchMean: drift.absolute / count, logprobMismatchMax: drift.max, samplerLearnerKl: drift.signed / count });
      if (batch.loss.tisCap === undefined) Object.assign(metrics, ratioMetrics(result.logprobs, rows, Number.POSITIVE_INFINITY, "token"));
    }
    return metrics;
  }

  // With truncated importance sampling, every row's logprobs under the weights before the update (the proximal
  // policy) become the ratio's denominator, and each token's loss is weighted by min(exp(proximal − sampler), cap).
  private learnerRows(batch: TrainBatch): { rows: LearnerRow[]; ratio?: RatioMetrics } {
    const cap = batch.loss.tisCap;
    if (cap === undefined) return { rows: batch.sequences.map((sequence) => ({ ...sequence, ratioDenominator: sequence.samplerLogprobs })) };
    const proximal = this.logprobs(batch.sequences);
    const masks = batch.sequences.map((sequence) => sequence.lossMask);
    const tis = importanceWeights(proximal, batch.sequences.map((sequence) => sequence.samplerLogprobs), masks, cap, batch.loss.tisLevel ?? "token");
    return {
      rows: batch.sequences.map((sequence, row) => ({ ...sequence, ratioDenominator: proximal[row]!, importanceWeights: tis.weights[row]! })),
      ratio: { importanceRatioMean: tis.ratioMean, importanceRatioMax: tis.ratioMax, importanceRatioClippedShare: tis.clippedShare },
    };
  }

  // The learner's logprobs of every row, in chunks that bound the padded activations as micro-batches do.
  private logprobs(sequences: readonly BatchSequence[]): number[][] {
    const rowsPerChunk = Math.max(1, Math.floor(this.microBatchPositions / this.config.contextLength));
    const logprobs: number[][] = [];
    for (let start = 0; start < sequences.length; start += rowsPerChunk) {
      logprobs.push(...this.model.sequenceLogprobs(sequences.slice(start, start + rowsPerChunk).map((sequence) => sequence.tokens)));
    }
    return logprobs;
  }
}

function ratioMetrics(trainer: readonly (readonly number[])[], sequences: readonly BatchSequence[], cap: number, level: "token" | "sequence"): RatioMetrics {
  const ratios = importanceWeights(trainer, sequences.map((sequence) => sequence.samplerLogprobs), sequences.map((sequence) => sequence.lossMask), cap, level);
  return { importanceRatioMean: ratios.ratioMean, importanceRatioMax: ratios.ratioMax, importanceRatioClippedShare: ratios.clippedShare };
}

/**
 * The batch's policy-gradient loss on one micro-batch, divided by the whole batch's `denominators` so that the
 * micro-batches' losses and gradients add up to the batch's; reports the clip fraction and KL to the reference.
 */
function policyMicroBatchLoss(batch: TrainBatch, denominators: LossDenominators, random: Rng): MicroBatchLoss<LearnerRow> {
  return (learnerLogprobs, micro) => {
    const { packed, rows } = micro;
    const shape: [number, number] = [packed.batch, packed.time - 1];
    // A value of target token t sits at position t − 1, like the mask.
    const samplerLogprobs = tf.tensor2d(packTargetValues(packed, rows.map((row) => row.ratioDenominator)), shape);
    const importance = batch.loss.tisCap === undefined ? undefined : tf.tensor2d(packTargetValues(packed, rows.map((row) => row.importanceWeights!)), shape);
    const advantages = tf.tensor2d(rows.map((row) => row.advantage), [packed.batch, 1]);
    const { referenceLogprobs, selectedTokens, mask } = micro;
    const inputs = { learnerLogprobs, samplerLogprobs, mask, advantages, referenceLogprobs, selectedTokens, importanceWeights: importance, random };
    const result = policyLoss(inputs, batch.loss, batch.lossAggregation, denominators);
    return { loss: result.loss, metrics: { clipFraction: result.clipFraction, klToReference: result.klToReference } };
  };
}

/** Sums of |sampler − learner| and (sampler − learner) over trained tokens (weighted by the loss mask), and the largest |difference|. */
function mismatch(sequences: readonly BatchSequence[], learnerLogprobs: readonly (readonly number[])[]): { absolute: number; signed: number; max: number } {
  const sums = { absolute: 0, signed: 0, max: 0 };
  sequences.forEach((sequence, row) => {
    // Token 0 is never predicted, like the mask.
    for (let token = 1; token < sequence.tokens.length; token++) {
      const difference = (sequence.samplerLogprobs[token]! - learnerLogprobs[row]![token]!) * sequence.lossMask[token]!;
      sums.absolute += Math.abs(difference);
      sums.signed += difference;
      sums.max = Math.max(sums.max, Math.abs(difference));
    }
  });
  return sums;
}

/** The entries of `keys` that `record` holds a value for. */
function definedOnly<T extends object>(record: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]])) as Partial<T>;
}
