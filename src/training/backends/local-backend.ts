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
import { LOCAL_LOSSES, lossDenominator, policyLoss } from "./policy-loss.js";
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
  function trainChunk(sequences: readonly BatchSequence[], batch: TrainBatch, measureMismatch: boolean): Partial<StepMetrics> {
    const denominator = lossDenominator(sequences.map((sequence) => sequence.lossMask), batch.lossAggregation);
    const result = opened().learner.accumulatedStep(sequences, policyMicroBatchLoss(batch, denominator), {
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
    }
    return metrics;
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
      const chunkSize = Math.ceil(batch.sequences.length / Math.max(1, batch.substeps));
      const totals: StepMetrics = {
        loss: 0, clipFraction: 0, gradNorm: 0, logprobMismatchMean: 0, logprobMismatchMax: 0, samplerLearnerKl: 0,
        sequences: batch.sequences.length,
        trainedTokens: batch.sequences.reduce((sum, sequence) => sum + sequence.lossMask.reduce((a, b) => a + b, 0), 0),
      };
      let chunks = 0;
      for (let start = 0; start < batch.sequences.length; start += chunkSize) {
        // Only the first chunk is measured before any update of this step, so its mismatch is the sampler's.
        const metrics = trainChunk(batch.sequences.slice(start, start + chunkSize), batch, start === 0);
        totals.loss += metrics.loss!;
        totals.clipFraction += metrics.clipFraction!;
        totals.gradNorm = Math.max(totals.gradNorm, metrics.gradNorm!);
        if (start === 0) {
          Object.assign(totals, pick(metrics, ["logprobMismatchMean", "logprobMismatchMax", "samplerLearnerKl", "klToReference", "selectedTokenFraction"]));
        }
        chunks += 1;
      }
      totals.loss /= Math.max(chunks, 1);
      totals.clipFraction /= Math.max(chunks, 1);
      steps.set(stepId, { state: "done", metrics: { ...totals, substeps: chunks } });
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
      await state.sampler.update(state.learner.weights());
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
      await state.sampler.update(checkpoint.weights);
      return policyRef();
    },

    async close(): Promise<void> {
      await sampler?.close();
      learner?.dispose();
      learner = undefined;
      sampler = undefined;
    },
  };
}

/**
 * The batch's policy-gradient loss on one micro-batch, divided by the whole batch's `denominator` so that the
 * micro-batches' losses and gradients add up to the batch's; reports the clip fraction and KL to the reference.
 */
function policyMicroBatchLoss(batch: TrainBatch, denominator: number): MicroBatchLoss<BatchSequence> {
  return (learnerLogprobs, micro) => {
    const { packed, rows } = micro;
    // Sampler logprob of target token t sits at position t − 1, like the mask.
    const samplerLogprobs = tf.tensor2d(packTargetValues(packed, rows.map((row) => row.samplerLogprobs)), [packed.batch, packed.time - 1]);
    const advantages = tf.tensor2d(rows.map((row) => row.advantage), [packed.batch, 1]);
    const { referenceLogprobs, selectedTokens, mask } = micro;
    const inputs = { learnerLogprobs, samplerLogprobs, mask, advantages, referenceLogprobs, selectedTokens };
    const result = policyLoss(inputs, batch.loss, batch.lossAggregation, denominator);
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

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
