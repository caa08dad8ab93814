/**
 * The local training backend on the embedded tiny model: tfjs (wasm) autograd on CPU, Tinker-style losses, Adam,
 * and a sampler (an OpenAI-compatible server) that gets each published policy version. Every step reports how far
 * the learner's logprobs are from the sampler's on the same tokens.
 */
import * as tf from "@tensorflow/tfjs";
import { parameterShapes, type TinyModelConfig } from "../../models/tiny/model-config.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { applyAdam, createAdamState, type AdamState } from "../../models/tiny/adam.js";
import { packTokenBatch } from "../../models/tiny/token-batch.js";
import { nextTokenEntropy, nextTokenLogprobs, readVariables, toVariables, type ModelVariables } from "../../models/tiny/transformer.js";
import { useWasmBackend } from "../../models/tiny/wasm-backend.js";
import {
  assertBatchSupported,
  type BackendCapabilities,
  type BatchSequence,
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
  let variables: ModelVariables | undefined;
  // The weights training started from, for the KL penalty; created on first use and never trained.
  let reference: ModelVariables | undefined;
  let adam: AdamState | undefined;
  let sampler: PolicySampler | undefined;
  let version = 0;
  const steps = new Map<string, StepStatus>();

  const capabilities: BackendCapabilities = {
    name: "local",
    losses: LOCAL_LOSSES,
    lossAggregations: ["sum", "token-mean", "seq-mean-token-mean"],
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
    if (!variables || !adam || !sampler) throw new Error("local backend: call open() first");
    return { variables, adam, sampler };
  };
  const policyRef = (): PolicyRef => ({
    backend: "local",
    modelId: opened().sampler.model,
    version,
    openaiBaseUrl: opened().sampler.baseUrl,
  });

  // One optimizer step on `sequences`: gradients are summed over micro-batches of a bounded number of padded
  // positions, so memory stays bounded however large the batch (the wasm heap cannot grow past a few GB).
  function trainChunk(sequences: readonly BatchSequence[], batch: TrainBatch, measureMismatch: boolean): Partial<StepMetrics> {
    const state = opened();
    const denominator = lossDenominator(sequences.map((sequence) => sequence.lossMask), batch.lossAggregation);
    const summed = new Map<string, tf.Tensor>();
    // Learner-vs-sampler logprob differences summed over the trained tokens of every micro-batch.
    const mismatchSums = { absolute: 0, signed: 0, max: 0 };
    let trainedTokens = 0;
    let loss = 0;
    let clippedTokens = 0;
    let klSum = 0;
    let selectedTokens = 0;
    for (const micro of microBatches(sequences, options.microBatchPositions ?? MICRO_BATCH_POSITIONS)) {
      const result = microBatchGradients(state.variables, micro, batch, denominator);
      loss += result.loss;
      clippedTokens += result.clipFraction * result.trainedTokens;
      klSum += result.klToReference * result.trainedTokens;
      selectedTokens += result.selectedTokens;
      for (const [name, gradient] of result.gradients) {
        const previous = summed.get(name);
        summed.set(name, previous ? tf.tidy(() => previous.add(gradient)) : gradient);
        if (previous) tf.dispose([previous, gradient]);
      }
      mismatchSums.absolute += result.mismatch.absolute;
      mismatchSums.signed += result.mismatch.signed;
      mismatchSums.max = Math.max(mismatchSums.max, result.mismatch.max);
      trainedTokens += result.trainedTokens;
    }
    const gradNorm = applyAdam(state.variables, Object.fromEntries(summed), state.adam, {
      learningRate: batch.optimizer.learningRate,
      beta1: batch.optimizer.beta1,
      beta2: batch.optimizer.beta2,
      epsilon: batch.optimizer.epsilon,
      weightDecay: batch.optimizer.weightDecay,
      clipNorm: batch.optimizer.gradClipNorm ?? Number.POSITIVE_INFINITY,
    });
    tf.dispose([...summed.values()]);
    const metrics: Partial<StepMetrics> = { loss, clipFraction: clippedTokens / Math.max(trainedTokens, 1), gradNorm };
    if (batch.loss.klCoef > 0) metrics.klToReference = klSum / Math.max(trainedTokens, 1);
    if (batch.loss.minEntropy > 0) metrics.selectedTokenFraction = selectedTokens / Math.max(trainedTokens, 1);
    if (measureMismatch) {
      const count = Math.max(trainedTokens, 1);
      Object.assign(metrics, {
        logprobMismatchMean: mismatchSums.absolute / count,
        logprobMismatchMax: mismatchSums.max,
        samplerLearnerKl: mismatchSums.signed / count,
      });
    }
    return metrics;
  }

  // The loss and gradients (by parameter name) of one micro-batch, and the learner-vs-sampler drift on its tokens.
  function microBatchGradients(variables: ModelVariables, sequences: readonly BatchSequence[], batch: TrainBatch, denominator: number) {
    const packed = packTokenBatch(sequences.map((sequence) => sequence.tokens), sequences.map((sequence) => sequence.lossMask));
    const positions = packed.time - 1;
    // Sampler logprob of target token t sits at position t − 1, like the mask.
    const sampled = new Float32Array(packed.batch * positions);
    sequences.forEach((sequence, row) => {
      for (let token = 1; token < sequence.tokens.length; token++) sampled[row * positions + token - 1] = sequence.samplerLogprobs[token]!;
    });
    const ids = tf.tensor2d(packed.ids, [packed.batch, packed.time], "int32");
    const samplerLogprobs = tf.tensor2d(sampled, [packed.batch, positions]);
    const mask = tf.tensor2d(packed.targetWeights, [packed.batch, positions]);
    const advantages = tf.tensor2d(sequences.map((sequence) => sequence.advantage), [packed.batch, 1]);
    const referenceLogprobs = batch.loss.klCoef > 0 ? tf.tidy(() => nextTokenLogprobs(referenceVariables(), ids, config)) : undefined;
    // Chosen from the weights before this update, outside the gradient: a token's selection is data, not a function to differentiate.
    const selectedTokens =
      batch.loss.minEntropy > 0
        ? tf.tidy(() => nextTokenEntropy(variables, ids, config).greaterEqual(batch.loss.minEntropy).toFloat() as tf.Tensor2D)
        : undefined;
    let learner: tf.Tensor2D | undefined;
    let clipFraction: tf.Scalar | undefined;
    let klToReference: tf.Scalar | undefined;
    const { value, grads } = tf.variableGrads(() => {
      const learnerLogprobs = nextTokenLogprobs(variables, ids, config);
      learner = tf.keep(learnerLogprobs.clone());
      const result = policyLoss(
        { learnerLogprobs, samplerLogprobs, mask, advantages, referenceLogprobs, selectedTokens },
        batch.loss,
        batch.lossAggregation,
        denominator,
      );
      clipFraction = tf.keep(result.clipFraction);
      klToReference = tf.keep(result.klToReference);
      return result.loss;
    }, [...variables.values()]);
    // variableGrads keys gradients by tfjs variable name; Adam wants them by parameter name.
    const gradients = new Map([...variables].map(([name, variable]) => [name, grads[variable.name]!]));
    const result = {
      loss: value.dataSync()[0]!,
      clipFraction: clipFraction!.dataSync()[0]!,
      klToReference: klToReference!.dataSync()[0]!,
      trainedTokens: packed.targetWeights.reduce((sum, weight) => sum + weight, 0),
      selectedTokens: selectedTokens ? tf.tidy(() => selectedTokens.mul(mask).sum().dataSync()[0]!) : 0,
      gradients,
      mismatch: mismatch(learner!, samplerLogprobs, mask),
    };
    tf.dispose([ids, samplerLogprobs, mask, advantages, value, learner!, clipFraction!, klToReference!]);
    if (referenceLogprobs) tf.dispose(referenceLogprobs);
    if (selectedTokens) tf.dispose(selectedTokens);
    return result;
  }

  function referenceVariables(): ModelVariables {
    reference ??= toVariables(options.weights, shapes);
    return reference;
  }

  return {
    name: "local",
    capabilities: () => capabilities,

    async open(request: OpenRequest): Promise<PolicyRef> {
      if (request.loraRank !== undefined) throw new UnsupportedRequestError("local", "option", "loraRank", ["full fine-tuning only"]);
      await useWasmBackend();
      variables = toVariables(options.weights, shapes);
      adam = createAdamState(variables);
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

    async status(stepId: string): Promise<StepStatus> {
      const status = steps.get(stepId);
      if (!status) throw new Error(`local backend: no step "${stepId}"`);
      return status;
    },

    async publish(): Promise<PolicyRef> {
      const state = opened();
      version += 1;
      await state.sampler.update(readVariables(state.variables));
      return policyRef();
    },

    async checkpoint(directory: string): Promise<{ path: string }> {
      const state = opened();
      const read = (map: Map<string, tf.Variable>) => new Map([...map].map(([name, variable]) => [name, variable.dataSync() as Float32Array]));
      writeLocalCheckpoint(directory, config, {
        manifest: { policyVersion: version, adamStep: state.adam.step, shapes },
        weights: readVariables(state.variables),
        firstMoment: read(state.adam.firstMoment),
        secondMoment: read(state.adam.secondMoment),
      });
      return { path: directory };
    },

    async restore(directory: string): Promise<PolicyRef> {
      const state = opened();
      const checkpoint = readLocalCheckpoint(directory);
      const expected = JSON.stringify(shapes);
      if (JSON.stringify(checkpoint.manifest.shapes) !== expected) {
        throw new Error(`${directory}: checkpoint shapes do not match the model config`);
      }
      const assign = (targets: Map<string, tf.Variable>, values: Map<string, Float32Array>) => {
        for (const [name, shape] of shapes) targets.get(name)!.assign(tf.tensor(values.get(name)!, shape));
      };
      assign(state.variables, checkpoint.weights);
      assign(state.adam.firstMoment, checkpoint.firstMoment);
      assign(state.adam.secondMoment, checkpoint.secondMoment);
      state.adam.step = checkpoint.manifest.adamStep;
      version = checkpoint.manifest.policyVersion;
      await state.sampler.update(checkpoint.weights);
      return policyRef();
    },

    async close(): Promise<void> {
      await sampler?.close();
      if (variables) tf.dispose([...variables.values()]);
      if (adam) tf.dispose([...adam.firstMoment.values(), ...adam.secondMoment.values()]);
      if (reference) tf.dispose([...reference.values()]);
      variables = undefined;
      reference = undefined;
      adam = undefined;
      sampler = undefined;
    },
  };
}

/** Sums of |sampler − learner| and (sampler − learner) over trained tokens, and the largest |difference|. */
function mismatch(learner: tf.Tensor2D, sampler: tf.Tensor2D, mask: tf.Tensor2D): { absolute: number; signed: number; max: number } {
  return tf.tidy(() => {
    const difference = sampler.sub(learner).mul(mask);
    return {
      absolute: difference.abs().sum().dataSync()[0]!,
      signed: difference.sum().dataSync()[0]!,
      max: difference.abs().max().dataSync()[0]!,
    };
  });
}

/**
 * Splits `sequences` into micro-batches of at most `maxPositions` padded positions (rows × longest row), after sorting
 * by length so that rows of like length share a block and little is padding. A row longer than the budget goes alone.
 */
export function microBatches<T extends { tokens: readonly number[] }>(sequences: readonly T[], maxPositions: number): T[][] {
  const sorted = [...sequences].sort((first, second) => first.tokens.length - second.tokens.length);
  const batches: T[][] = [];
  let current: T[] = [];
  for (const sequence of sorted) {
    // Sorted ascending, so this row is the longest of the block it joins.
    if (current.length > 0 && (current.length + 1) * sequence.tokens.length > maxPositions) {
      batches.push(current);
      current = [];
    }
    current.push(sequence);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
