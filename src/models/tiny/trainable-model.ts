/**
 * The tiny model's learner: tfjs variables plus Adam state, scoring sequences and taking gradient steps on any token
 * loss, accumulated over length-sorted micro-batches so that memory stays bounded however large the batch.
 */
import * as tf from "@tensorflow/tfjs";
import { applyAdam, createAdamState, type AdamOptions, type AdamState } from "./adam.js";
import { microBatches } from "./micro-batches.js";
import { parameterShapes, type TinyModelConfig } from "./model-config.js";
import type { ModelWeights } from "./model-weights.js";
import { packTokenBatch, type TokenBatch } from "./token-batch.js";
import { nextTokenEntropy, nextTokenLogprobs, readVariables, toVariables, type ModelVariables } from "./transformer.js";
import { useWasmBackend } from "./wasm-backend.js";

/** Builds a scalar loss from the learner's target logprobs [batch, time-1] and the packed batch. */
export type TokenLoss = (logprobs: tf.Tensor2D, packed: TokenBatch) => tf.Scalar;

/** A sequence to train on: its tokens and, aligned with them, the weight of predicting each (token 0 is never predicted). */
export interface TrainingRow {
  tokens: readonly number[];
  lossMask: readonly number[];
}

/** One micro-batch as a loss sees it: its rows, packed, and tensors [rows, time − 1] aligned with the targets. */
export interface MicroBatch<Row extends TrainingRow> {
  rows: readonly Row[];
  packed: TokenBatch;
  /** The packed loss mask. */
  mask: tf.Tensor2D;
  /** The reference policy's logprobs of the targets (the weights this learner started from); when the step asks. */
  referenceLogprobs?: tf.Tensor2D;
  /** 1 where the next-token entropy before the step is at least `minEntropy` (a forking token), else 0; when the step asks. */
  selectedTokens?: tf.Tensor2D;
}

/** A micro-batch's loss from the learner's target logprobs [rows, time − 1]: the scalar to minimise and scalar metrics. */
export type MicroBatchLoss<Row extends TrainingRow> = (
  logprobs: tf.Tensor2D,
  micro: MicroBatch<Row>,
) => { loss: tf.Scalar; metrics?: Record<string, tf.Scalar> };

/** Options of one accumulated step. */
export interface AccumulatedStepOptions extends AdamOptions {
  /** Padded positions (rows × longest row) per forward/backward pass; absent = the whole batch in one pass, in order. */
  microBatchPositions?: number;
  /** Give each micro-batch the reference policy's logprobs (for a KL penalty). */
  referenceLogprobs?: boolean;
  /** Give each micro-batch the tokens whose entropy reaches this many nats; 0 or absent = none asked. */
  minEntropy?: number;
}

/** What one micro-batch of a step reports. */
export interface MicroBatchReport {
  /** Sum of the micro-batch's loss-mask weights. */
  trainedTokens: number;
  /** Trained tokens that were selected by `minEntropy` (0 when it was not asked). */
  selectedTokens: number;
  /** The loss's metrics, read out. */
  metrics: Record<string, number>;
}

/** What one optimiser step reports. */
export interface StepResult {
  /** The loss, summed over micro-batches. */
  loss: number;
  gradientNorm: number;
  /** The learner's logprob of every token before the update, aligned with the tokens (entry 0 is 0), rows in input order. */
  logprobs: number[][];
}

/** What one accumulated step reports: a StepResult plus each micro-batch's report, in the order they ran. */
export interface AccumulatedStepResult extends StepResult {
  microBatches: MicroBatchReport[];
}

/** Learner state a checkpoint holds: weights, Adam moments and Adam's step count. */
export interface LearnerState {
  weights: ModelWeights;
  firstMoment: ModelWeights;
  secondMoment: ModelWeights;
  adamStep: number;
}

export class TrainableModel {
  // The weights training started from, for KL penalties; made into variables on first use and never trained.
  private reference: ModelVariables | undefined;

  private constructor(
    readonly config: TinyModelConfig,
    private readonly startWeights: ModelWeights,
    private readonly variables: ModelVariables,
    private readonly adam: AdamState,
  ) {}

  /** A learner starting from `weights` (also its reference policy) with fresh Adam moments. */
  static async fromWeights(config: TinyModelConfig, weights: ModelWeights): Promise<TrainableModel> {
    await useWasmBackend();
    const variables = toVariables(weights, parameterShapes(config));
    return new TrainableModel(config, weights, variables, createAdamState(variables));
  }

  /** Log-probability of every token given those before it, aligned with the tokens (entry 0 is 0: never predicted). */
  sequenceLogprobs(sequences: readonly (readonly number[])[]): number[][] {
    const packed = packTokenBatch(sequences, sequences.map((sequence) => sequence.map(() => 1)));
    const values = tf.tidy(() => {
      const ids = tf.tensor2d(packed.ids, [packed.batch, packed.time], "int32");
      return nextTokenLogprobs(this.variables, ids, this.config).dataSync();
    });
    return unpackRows(values, sequences, packed.time);
  }

  /** One Adam step on `loss` over `sequences` in one pass; `lossMask` (aligned with the tokens) marks the predicted tokens. */
  step(
    sequences: readonly (readonly number[])[],
    lossMask: readonly (readonly number[])[],
    loss: TokenLoss,
    options: AdamOptions,
  ): StepResult {
    const rows = sequences.map((tokens, row) => ({ tokens, lossMask: lossMask[row]! }));
    const result = this.accumulatedStep(rows, (logprobs, micro) => ({ loss: loss(logprobs, micro.packed) }), options);
    return { loss: result.loss, gradientNorm: result.gradientNorm, logprobs: result.logprobs };
  }

  /**
   * One Adam step whose gradients are summed over micro-batches of `rows`. `loss` sees one micro-batch at a time, so
   * for the sum to be the whole batch's loss it must divide by the whole batch's denominator, not the micro-batch's.
   */
  accumulatedStep<Row extends TrainingRow>(rows: readonly Row[], loss: MicroBatchLoss<Row>, options: AccumulatedStepOptions): AccumulatedStepResult {
    const { microBatchPositions, referenceLogprobs, minEntropy, ...adamOptions } = options;
    const { gradients, ...result } = this.accumulateGradients(rows, loss, { microBatchPositions, referenceLogprobs, minEntropy });
    return { ...result, gradientNorm: this.applyGradients(gradients, adamOptions) };
  }

  /**
   * The gradients of `loss` summed over micro-batches of `rows`, by parameter name, without changing the weights (a
   * Tinker forward_backward: gradients add up across calls until an optimizer step applies them).
   */
  accumulateGradients<Row extends TrainingRow>(
    rows: readonly Row[],
    loss: MicroBatchLoss<Row>,
    options: Pick<AccumulatedStepOptions, "microBatchPositions" | "referenceLogprobs" | "minEntropy"> = {},
  ): Omit<AccumulatedStepResult, "gradientNorm"> & { gradients: Map<string, tf.Tensor> } {
    const { microBatchPositions, referenceLogprobs, minEntropy = 0 } = options;
    const blocks = microBatchPositions === undefined ? [rows] : microBatches(rows, microBatchPositions);
    const names = [...this.variables.keys()];
    const summed = new Map<string, tf.Tensor>();
    const logprobsByRow = new Map<Row, number[]>();
    const reports: MicroBatchReport[] = [];
    let lossSum = 0;
    for (const block of blocks) {
      const micro = this.microBatchGradients(block, loss, { referenceLogprobs, minEntropy }, names);
      lossSum += micro.loss;
      reports.push(micro.report);
      for (const [index, row] of block.entries()) logprobsByRow.set(row, micro.logprobs[index]!);
      addGradients(summed, micro.gradients);
    }
    return { loss: lossSum, gradients: summed, logprobs: rows.map((row) => logprobsByRow.get(row)!), microBatches: reports };
  }

  /** One Adam step on summed gradients (which it disposes); returns their global norm before clipping. */
  applyGradients(gradients: Map<string, tf.Tensor>, options: AdamOptions): number {
    const gradientNorm = applyAdam(this.variables, Object.fromEntries(gradients), this.adam, options);
    tf.dispose([...gradients.values()]);
    return gradientNorm;
  }

  // The loss, gradients (by parameter name), pre-update logprobs and report of one micro-batch.
  private microBatchGradients<Row extends TrainingRow>(
    rows: readonly Row[],
    loss: MicroBatchLoss<Row>,
    asked: { referenceLogprobs?: boolean; minEntropy: number },
    names: string[],
  ) {
    const packed = packTokenBatch(rows.map((row) => row.tokens), rows.map((row) => row.lossMask));
    const ids = tf.tensor2d(packed.ids, [packed.batch, packed.time], "int32");
    const mask = tf.tensor2d(packed.targetWeights, [packed.batch, packed.time - 1]);
    const micro: MicroBatch<Row> = { rows, packed, mask };
    if (asked.referenceLogprobs) micro.referenceLogprobs = tf.tidy(() => nextTokenLogprobs(this.referenceVariables(), ids, this.config));
    // Chosen from the weights before this update, outside the gradient: a token's selection is data, not a function to differentiate.
    if (asked.minEntropy > 0) {
      micro.selectedTokens = tf.tidy(() => nextTokenEntropy(this.variables, ids, this.config).greaterEqual(asked.minEntropy).toFloat() as tf.Tensor2D);
    }
    let targetLogprobs: tf.Tensor | undefined;
    let metrics: Record<string, tf.Scalar> = {};
    const { value, grads } = tf.variableGrads(
      () =>
        tf.tidy(() => {
          const logprobs = nextTokenLogprobs(this.variables, ids, this.config);
          targetLogprobs = tf.keep(logprobs.clone());
          const result = loss(logprobs, micro);
          metrics = Object.fromEntries(Object.entries(result.metrics ?? {}).map(([name, metric]) => [name, tf.keep(metric)]));
          return result.loss;
        }),
      names.map((name) => this.variables.get(name)!),
    );
    // variableGrads keys gradients by tfjs variable name; Adam wants them by parameter name.
    const gradients = new Map(names.map((name) => [name, grads[this.variables.get(name)!.name]!]));
    const report: MicroBatchReport = {
      trainedTokens: packed.targetWeights.reduce((sum, weight) => sum + weight, 0),
      selectedTokens: micro.selectedTokens ? tf.tidy(() => micro.selectedTokens!.mul(mask).sum().dataSync()[0]!) : 0,
      metrics: Object.fromEntries(Object.entries(metrics).map(([name, metric]) => [name, metric.dataSync()[0]!])),
    };
    const logprobs = unpackRows(targetLogprobs!.dataSync(), rows.map((row) => row.tokens), packed.time);
    const result = { loss: value.dataSync()[0]!, gradients, logprobs, report };
    tf.dispose([ids, mask, value, targetLogprobs!, ...Object.values(metrics)]);
    if (micro.referenceLogprobs) tf.dispose(micro.referenceLogprobs);
    if (micro.selectedTokens) tf.dispose(micro.selectedTokens);
    return result;
  }

  private referenceVariables(): ModelVariables {
    this.reference ??= toVariables(this.startWeights, parameterShapes(this.config));
    return this.reference;
  }

  /** A copy of the current weights (for the sampler and for checkpoints). */
  weights(): ModelWeights {
    return readVariables(this.variables);
  }

  /** A copy of the weights and optimiser state, for a checkpoint. */
  state(): LearnerState {
    return {
      weights: readVariables(this.variables),
      firstMoment: readVariables(this.adam.firstMoment),
      secondMoment: readVariables(this.adam.secondMoment),
      adamStep: this.adam.step,
    };
  }

  /** Puts back weights and optimiser state saved by `state()`; the reference policy stays the starting weights. */
  restoreState(state: LearnerState): void {
    tf.tidy(() => {
      for (const [name, shape] of parameterShapes(this.config)) {
        this.variables.get(name)!.assign(tf.tensor(state.weights.get(name)!, shape));
        this.adam.firstMoment.get(name)!.assign(tf.tensor(state.firstMoment.get(name)!, shape));
        this.adam.secondMoment.get(name)!.assign(tf.tensor(state.secondMoment.get(name)!, shape));
      }
    });
    this.adam.step = state.adamStep;
  }

  /** Frees the tfjs memory held by this learner. */
  dispose(): void {
    tf.dispose([...this.variables.values(), ...this.adam.firstMoment.values(), ...this.adam.secondMoment.values()]);
    if (this.reference) tf.dispose([...this.reference.values()]);
    this.reference = undefined;
  }
}

/** Adds `more` into `into` by parameter name, disposing the tensors it replaces. */
export function addGradients(into: Map<string, tf.Tensor>, more: ReadonlyMap<string, tf.Tensor>): void {
  for (const [name, gradient] of more) {
    const previous = into.get(name);
    into.set(name, previous ? tf.tidy(() => previous.add(gradient)) : gradient);
    if (previous) tf.dispose([previous, gradient]);
  }
}

// Target-aligned [batch, time-1] values back to token-aligned rows with a leading 0.
function unpackRows(values: ArrayLike<number>, sequences: readonly (readonly number[])[], time: number): number[][] {
  return sequences.map((sequence, row) => {
    const result = [0];
    for (let position = 1; position < sequence.length; position++) result.push(values[row * (time - 1) + position - 1]!);
    return result;
  });
}

/** Masked mean negative log-likelihood: the supervised loss. */
export const supervisedLoss: TokenLoss = (logprobs, packed) => {
  const weights = tf.tensor2d(packed.targetWeights, [packed.batch, packed.time - 1]);
  return logprobs.mul(weights).sum().neg().div(weights.sum().maximum(1)) as tf.Scalar;
};
