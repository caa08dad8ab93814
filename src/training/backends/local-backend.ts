/**
 * The local training backend: a thin adapter from the TrainingBackend contract to the embedded tiny model's learner
 * (TrainableModel: tfjs on wasm, micro-batched gradients, Adam) with Tinker-style losses, and a sampler (an
 * OpenAI-compatible server) that gets each published policy version. Every step reports how far the learner's
 * logprobs are from the sampler's on the same tokens.
 */
import * as tf from "@tensorflow/tfjs";
import { parameterShapes, type TinyModelConfig } from "../../models/tiny/model-config.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { packTargetValues } from "../../models/tiny/token-batch.js";
import { TrainableModel, type MicroBatchLoss } from "../../models/tiny/trainable-model.js";
import {
  assertBatchSupported,
  type BackendCapabilities,
  type BatchSequence,
  LossAggregationSchema,
  type OpenRequest,
  type PolicyRef,
  type SampleRequest,
  type SampleResult,
  type StepStatus,
  type TrainBatch,
  type TrainingBackend,
} from "../backend.js";
import { UnsupportedRequestError } from "../errors/unsupported-request-error.js";
import { createRng, type Rng } from "../../core/random.js";
import { importanceWeights } from "./importance-weights.js";
import { LOCAL_LOSSES, lossDenominators, policyLoss, type LossDenominators } from "./policy-loss.js";
import { readLocalCheckpoint, writeLocalCheckpoint } from "./local-checkpoint.js";
import { sampleCompletions, type PolicySampler } from "./policy-sampler.js";

/** The model to train, its starting weights (also the KL reference), and how to start its sampler. */
export interface LocalBackendOptions {
  config: TinyModelConfig;
  weights: ModelWeights;
  startSampler(weights: ModelWeights): Promise<PolicySampler>;
  /** Padded positions per forward/backward pass (default MICRO_BATCH_POSITIONS); gradients are summed across passes. */
  microBatchPositions?: number;
}

interface StepMetrics {
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
}

/**
 * Padded positions (rows × longest row) in one forward/backward pass. Attention keeps [rows, heads, T, T] per layer
 * alive for the backward pass; a whole batch of ~380 judge and solver rows at T = 104 ran the wasm heap out of bounds.
 */
const MICRO_BATCH_POSITIONS = 8192;

/** Creates the local backend; nothing runs until `open`. */
export function createLocalBackend(options: LocalBackendOptions): TrainingBackend {
  const { config } = options;
  const shapes = parameterShapes(config);
  let learner: TrainableModel | undefined;
  let sampler: PolicySampler | undefined;
  let version = 0;
  const steps = new Map<string, StepStatus>();

  const capabilities: BackendCapabilities = {
    name: "local",
    losses: LOCAL_LOSSES,
    lossAggregations: LossAggregationSchema.options,
    merges: ["prefix", "per_call"],
    sampling: "openai",
    fullFineTune: true,
    lora: false,
    maxContext: config.contextLength,
    checkpoints: true,
    referenceKl: true,
    entropySelection: true,
    dualClip: true,
    truncatedImportanceSampling: true,
    asyncRollouts: "pinned",
  };

  const opened = () => {
    if (!learner || !sampler) throw new Error("local backend: call open() first");
    return { learner, sampler };
  };
  const policyRef = (): PolicyRef => ({
    backend: "local",
    modelId: opened().sampler.model,
    version,
    openaiBaseUrl: opened().sampler.baseUrl,
  });

  // One optimizer step on `sequences`; the learner sums gradients over micro-batches of a bounded number of padded
  // positions, so memory stays bounded however large the batch (the wasm heap cannot grow past a few GB).
  function trainChunk(sequences: readonly LearnerRow[], batch: TrainBatch, measureMismatch: boolean): Partial<StepMetrics> {
    const denominators = lossDenominators(sequences.map((sequence) => sequence.lossMask), batch.lossAggregation);
    // clip_cov's draw among its candidates: seeded by the optimizer step, so a resumed run draws the same.
    const random = createRng(opened().learner.state().adamStep * 7919 + 17);
    const result = opened().learner.accumulatedStep(sequences, policyMicroBatchLoss(batch, denominators, random), {
      microBatchPositions: options.microBatchPositions ?? MICRO_BATCH_POSITIONS,
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
      const drift = mismatch(sequences, result.logprobs);
      Object.assign(metrics, { logprobMismatchMean: drift.absolute / count, logprobMismatchMax: drift.max, samplerLearnerKl: drift.signed / count });
      if (batch.loss.tisCap === undefined) Object.assign(metrics, ratioMetrics(result.logprobs, sequences, Number.POSITIVE_INFINITY, "token"));
    }
    return metrics;
  }

  // With truncated importance sampling, every row's logprobs under the weights before the update (the proximal
  // policy) become the ratio's denominator, and each token's loss is weighted by min(exp(proximal − sampler), cap).
  function learnerRows(batch: TrainBatch): { rows: LearnerRow[]; ratio?: Pick<StepMetrics, "importanceRatioMean" | "importanceRatioMax" | "importanceRatioClippedShare"> } {
    const cap = batch.loss.tisCap;
    if (cap === undefined) return { rows: batch.sequences.map((sequence) => ({ ...sequence, ratioDenominator: sequence.samplerLogprobs })) };
    const proximal = proximalLogprobs(batch.sequences);
    const masks = batch.sequences.map((sequence) => sequence.lossMask);
    const tis = importanceWeights(proximal, batch.sequences.map((sequence) => sequence.samplerLogprobs), masks, cap, batch.loss.tisLevel ?? "token");
    return {
      rows: batch.sequences.map((sequence, row) => ({ ...sequence, ratioDenominator: proximal[row]!, importanceWeights: tis.weights[row]! })),
      ratio: { importanceRatioMean: tis.ratioMean, importanceRatioMax: tis.ratioMax, importanceRatioClippedShare: tis.clippedShare },
    };
  }

  // The learner's logprobs of every row, in chunks that bound the padded activations as micro-batches do.
  function proximalLogprobs(sequences: readonly BatchSequence[]): number[][] {
    const rowsPerChunk = Math.max(1, Math.floor((options.microBatchPositions ?? MICRO_BATCH_POSITIONS) / config.contextLength));
    const logprobs: number[][] = [];
    for (let start = 0; start < sequences.length; start += rowsPerChunk) {
      logprobs.push(...opened().learner.sequenceLogprobs(sequences.slice(start, start + rowsPerChunk).map((sequence) => sequence.tokens)));
    }
    return logprobs;
  }

  function ratioMetrics(trainer: readonly (readonly number[])[], sequences: readonly BatchSequence[], cap: number, level: "token" | "sequence") {
    const ratios = importanceWeights(trainer, sequences.map((sequence) => sequence.samplerLogprobs), sequences.map((sequence) => sequence.lossMask), cap, level);
    return { importanceRatioMean: ratios.ratioMean, importanceRatioMax: ratios.ratioMax, importanceRatioClippedShare: ratios.clippedShare };
  }

  return {
    name: "local",
    capabilities: () => capabilities,

    async open(request: OpenRequest): Promise<PolicyRef> {
      if (request.loraRank !== undefined) throw new UnsupportedRequestError("local", "option", "loraRank", ["full fine-tuning only"]);
      learner = await TrainableModel.fromWeights(config, options.weights);
      sampler = await options.startSampler(options.weights);
      return policyRef();
    },

    async sample(request: SampleRequest): Promise<SampleResult> {
      if (request.stopTokenIds?.length) throw new UnsupportedRequestError("local", "option", "stopTokenIds", ["maxTokens and the end token"]);
      return sampleCompletions(opened().sampler, request, version);
    },

    async submit(batch: TrainBatch): Promise<{ stepId: string }> {
      assertBatchSupported(capabilities, batch);
      const stepId = `step-${steps.size + 1}`;
      const { rows, ratio } = learnerRows(batch);
      const chunkSize = Math.ceil(rows.length / Math.max(1, batch.substeps));
      const totals: StepMetrics = {
        loss: 0, clipFraction: 0, gradNorm: 0, logprobMismatchMean: 0, logprobMismatchMax: 0, samplerLearnerKl: 0,
        importanceRatioMean: 0, importanceRatioMax: 0, importanceRatioClippedShare: 0, ...ratio,
        sequences: batch.sequences.length,
        trainedTokens: batch.sequences.reduce((sum, sequence) => sum + sequence.lossMask.reduce((a, b) => a + b, 0), 0),
      };
      let chunks = 0;
      for (let start = 0; start < rows.length; start += chunkSize) {
        // Only the first chunk is measured before any update of this step, so its mismatch is the sampler's.
        const metrics = trainChunk(rows.slice(start, start + chunkSize), batch, start === 0);
        totals.loss += metrics.loss!;
        totals.clipFraction += metrics.clipFraction!;
        totals.gradNorm = Math.max(totals.gradNorm, metrics.gradNorm!);
        if (start === 0) {
          // The ratio's figures come from here only without TIS (then learnerRows measured them before the step).
          Object.assign(
            totals,
            definedOnly(pick(metrics, ["logprobMismatchMean", "logprobMismatchMax", "samplerLearnerKl", "klToReference", "selectedTokenFraction", "importanceRatioMean", "importanceRatioMax", "importanceRatioClippedShare"])),
          );
        }
        chunks += 1;
      }
      totals.loss /= Math.max(chunks, 1);
      totals.clipFraction /= Math.max(chunks, 1);
      steps.set(stepId, { state: "done", metrics: definedOnly({ ...totals, substeps: chunks }) });
      return { stepId };
    },

    async forward(batch: TrainBatch): Promise<{ loss: number; tokens: number }> {
      if (batch.loss.kind !== "cross_entropy") throw new UnsupportedRequestError("local", "forward loss", batch.loss.kind, ["cross_entropy"]);
      assertBatchSupported(capabilities, batch);
      let negativeLogprob = 0;
      let tokens = 0;
      // Rows in chunks bound the padded activations, as micro-batches do for training.
      const rowsPerChunk = Math.max(1, Math.floor((options.microBatchPositions ?? MICRO_BATCH_POSITIONS) / config.contextLength));
      for (let start = 0; start < batch.sequences.length; start += rowsPerChunk) {
        const chunk = batch.sequences.slice(start, start + rowsPerChunk);
        const logprobs = opened().learner.sequenceLogprobs(chunk.map((sequence) => sequence.tokens));
        chunk.forEach((sequence, row) => {
          // Token 0 is never predicted, like the mask.
          for (let token = 1; token < sequence.tokens.length; token++) {
            negativeLogprob -= logprobs[row]![token]! * sequence.lossMask[token]!;
            tokens += sequence.lossMask[token]!;
          }
        });
      }
      return { loss: negativeLogprob / Math.max(tokens, 1), tokens };
    },

    async status(stepId: string): Promise<StepStatus> {
      const status = steps.get(stepId);
      if (!status) throw new Error(`local backend: no step "${stepId}"`);
      return status;
    },

    async publish(): Promise<PolicyRef> {
      const state = opened();
      version += 1;
      await state.sampler.update(state.learner.weights(), version);
      return policyRef();
    },

    async checkpoint(directory: string): Promise<{ path: string }> {
      const { weights, firstMoment, secondMoment, adamStep } = opened().learner.state();
      writeLocalCheckpoint(directory, config, { manifest: { policyVersion: version, adamStep, shapes }, weights, firstMoment, secondMoment });
      return { path: directory };
    },

    async restore(directory: string): Promise<PolicyRef> {
      const state = opened();
      const checkpoint = readLocalCheckpoint(directory);
      if (JSON.stringify(checkpoint.manifest.shapes) !== JSON.stringify(shapes)) {
        throw new Error(`${directory}: checkpoint shapes do not match the model config`);
      }
      state.learner.restoreState({ ...checkpoint, adamStep: checkpoint.manifest.adamStep });
      version = checkpoint.manifest.policyVersion;
      await state.sampler.update(checkpoint.weights, version);
      return policyRef();
    },

    async retainVersions(versions: readonly number[]): Promise<void> {
      await opened().sampler.retain?.(versions);
    },

    async close(): Promise<void> {
      await sampler?.close();
      learner?.dispose();
      learner = undefined;
      sampler = undefined;
    },
  };
}

/** A batch row as the learner trains it: the ratio's denominator (sampler or proximal logprobs) and, with TIS, its weights. */
interface LearnerRow extends BatchSequence {
  ratioDenominator: readonly number[];
  importanceWeights?: readonly number[];
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

/** The record without its undefined entries (StepStatus metrics are numbers). */
function definedOnly(record: object): Record<string, number> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, number] => entry[1] !== undefined));
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
