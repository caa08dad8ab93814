/** The tiny model's learner: tfjs variables plus Adam state, scoring sequences and taking gradient steps on any token loss. */
import * as tf from "@tensorflow/tfjs";
import { applyAdam, createAdamState, type AdamOptions, type AdamState } from "./adam.js";
import { parameterShapes, type TinyModelConfig } from "./model-config.js";
import type { ModelWeights } from "./model-weights.js";
import { packTokenBatch, type TokenBatch } from "./token-batch.js";
import { nextTokenLogprobs, readVariables, toVariables, type ModelVariables } from "./transformer.js";
import { useWasmBackend } from "./wasm-backend.js";

/** Builds a scalar loss from the learner's target logprobs [batch, time-1] and the packed batch. */
export type TokenLoss = (logprobs: tf.Tensor2D, packed: TokenBatch) => tf.Scalar;

/** What one optimiser step reports. */
export interface StepResult {
  loss: number;
  gradientNorm: number;
  /** The learner's logprob of every token before the update, aligned with the tokens (entry 0 is 0). */
  logprobs: number[][];
}

export class TrainableModel {
  private constructor(
    readonly config: TinyModelConfig,
    private readonly variables: ModelVariables,
    private readonly adam: AdamState,
  ) {}

  /** A learner starting from `weights` with fresh Adam moments. */
  static async fromWeights(config: TinyModelConfig, weights: ModelWeights): Promise<TrainableModel> {
    await useWasmBackend();
    const variables = toVariables(weights, parameterShapes(config));
    return new TrainableModel(config, variables, createAdamState(variables));
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

  /** One Adam step on `loss` over `sequences`; `lossMask` (aligned with the tokens) marks the predicted tokens. */
  step(
    sequences: readonly (readonly number[])[],
    lossMask: readonly (readonly number[])[],
    loss: TokenLoss,
    options: AdamOptions,
  ): StepResult {
    const packed = packTokenBatch(sequences, lossMask);
    const names = [...this.variables.keys()];
    let targetLogprobs: tf.Tensor | undefined;
    const { value, grads } = tf.variableGrads(
      () =>
        tf.tidy(() => {
          const ids = tf.tensor2d(packed.ids, [packed.batch, packed.time], "int32");
          const logprobs = nextTokenLogprobs(this.variables, ids, this.config);
          targetLogprobs = tf.keep(logprobs.clone());
          return loss(logprobs, packed);
        }),
      names.map((name) => this.variables.get(name)!),
    );
    const logprobValues = targetLogprobs!.dataSync();
    const gradients = Object.fromEntries(names.map((name) => [name, grads[this.variables.get(name)!.name]]));
    const gradientNorm = applyAdam(this.variables, gradients, this.adam, options);
    const lossValue = value.dataSync()[0]!;
    tf.dispose([value, targetLogprobs!, ...Object.values(grads)]);
    return { loss: lossValue, gradientNorm, logprobs: unpackRows(logprobValues, sequences, packed.time) };
  }

  /** A copy of the current weights (for the sampler and for checkpoints). */
  weights(): ModelWeights {
    return readVariables(this.variables);
  }

  /** Frees the tfjs memory held by this learner. */
  dispose(): void {
    tf.dispose([...this.variables.values(), ...this.adam.firstMoment.values(), ...this.adam.secondMoment.values()]);
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
