/** The tiny decoder-only transformer in tfjs (pre-norm GPT): the differentiable forward pass used for training and scoring. */
import * as tf from "@tensorflow/tfjs";
import type { TinyModelConfig } from "./model-config.js";

/** tfjs variables by parameter name. */
export type ModelVariables = Map<string, tf.Variable>;

const NORM_EPSILON = 1e-5;

function layerNorm(input: tf.Tensor, scale: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(input, -1, true);
  return input.sub(mean).mul(tf.rsqrt(variance.add(NORM_EPSILON))).mul(scale).add(bias);
}

/**
 * x [n, in] @ w [in, out] whose gradients use explicit transposes: the wasm backend runs matMul with a transpose
 * flag about 10× slower than a plain matMul of the transposed copy.
 */
const linearProduct = tf.customGrad(((input: tf.Tensor, weight: tf.Tensor, save: tf.GradSaveFunc) => {
  save([input, weight]);
  return {
    value: tf.matMul(input as tf.Tensor2D, weight as tf.Tensor2D),
    gradFunc: (gradient: tf.Tensor, saved: tf.Tensor[]) => {
      const [savedInput, savedWeight] = saved as [tf.Tensor2D, tf.Tensor2D];
      return [
        tf.matMul(gradient as tf.Tensor2D, tf.transpose(savedWeight)),
        tf.matMul(tf.transpose(savedInput), gradient as tf.Tensor2D),
      ];
    },
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]);

function linear(input: tf.Tensor, weight: tf.Tensor, bias?: tf.Tensor): tf.Tensor {
  const product = linearProduct(input, weight);
  return bias ? product.add(bias) : product;
}

// GELU, tanh approximation (as in GPT-2).
function gelu(input: tf.Tensor): tf.Tensor {
  const cube = input.mul(input).mul(input);
  return input.mul(0.5).mul(tf.tanh(input.add(cube.mul(0.044715)).mul(Math.sqrt(2 / Math.PI))).add(1));
}

/**
 * Logits for every position: ids [batch, time] int32 → [batch, time, vocab]. The embedding is a one-hot
 * matmul because the wasm backend has no gradient for `gather`; the output head is tied to the embedding.
 */
export function forwardLogits(variables: ModelVariables, ids: tf.Tensor2D, config: TinyModelConfig): tf.Tensor3D {
  const weight = (name: string) => variables.get(name)!;
  const [batch, time] = ids.shape;
  if (time > config.contextLength) {
    throw new Error(`Cannot run a sequence of length ${time}: the context is only ${config.contextLength}`);
  }
  const { width, heads, vocabSize } = config;
  const headWidth = width / heads;
  const oneHot = tf.oneHot(ids.reshape([batch * time]), vocabSize).toFloat();
  const positions = weight("positionEmbedding").slice([0, 0], [time, width]);
  let hidden = linear(oneHot, weight("tokenEmbedding")).reshape([batch, time, width]).add(positions);
  // Additive causal mask [time, time]: 0 on and below the diagonal, -1e9 above it.
  const causal = tf.linalg.bandPart(tf.ones([time, time]), -1, 0);
  const mask = tf.sub(1, causal).mul(-1e9);
  for (let layer = 0; layer < config.layers; layer++) {
    const prefix = `layer${layer}.`;
    const normed = layerNorm(hidden, weight(`${prefix}attentionNorm.scale`), weight(`${prefix}attentionNorm.bias`));
    const qkv = linear(normed.reshape([batch * time, width]), weight(`${prefix}qkv.weight`), weight(`${prefix}qkv.bias`));
    // Each of query, key, value: (B, heads, T, headWidth); key is laid out (B, heads, headWidth, T) for a plain matMul.
    const split = (index: number) => qkv.slice([0, index * width], [batch * time, width]).reshape([batch, time, heads, headWidth]);
    const query = split(0).transpose([0, 2, 1, 3]);
    const keyTransposed = split(1).transpose([0, 2, 3, 1]);
    const value = split(2).transpose([0, 2, 1, 3]);
    const scores = tf.matMul(query, keyTransposed).mul(1 / Math.sqrt(headWidth)).add(mask); // (B, heads, T, T)
    const attended = tf
      .matMul(tf.softmax(scores, -1), value)
      .transpose([0, 2, 1, 3])
      .reshape([batch * time, width]);
    const projected = linear(attended, weight(`${prefix}attentionOutput.weight`), weight(`${prefix}attentionOutput.bias`));
    hidden = hidden.add(projected.reshape([batch, time, width]));
    const mlpInput = layerNorm(hidden, weight(`${prefix}mlpNorm.scale`), weight(`${prefix}mlpNorm.bias`)).reshape([batch * time, width]);
    const inner = gelu(linear(mlpInput, weight(`${prefix}mlpIn.weight`), weight(`${prefix}mlpIn.bias`)));
    const mlpOutput = linear(inner, weight(`${prefix}mlpOut.weight`), weight(`${prefix}mlpOut.bias`));
    hidden = hidden.add(mlpOutput.reshape([batch, time, width]));
  }
  const final = layerNorm(hidden, weight("finalNorm.scale"), weight("finalNorm.bias")).reshape([batch * time, width]);
  return linear(final, tf.transpose(weight("tokenEmbedding"))).reshape([batch, time, vocabSize]) as tf.Tensor3D;
}

/**
 * Log-probability of each next token: ids [B, T] → [B, T-1], where entry t is log p(ids[t+1] | ids[..t]).
 * Must run inside a tf.tidy or a gradient function.
 */
export function nextTokenLogprobs(variables: ModelVariables, ids: tf.Tensor2D, config: TinyModelConfig): tf.Tensor2D {
  const [batch, time] = ids.shape;
  const targets = tf.oneHot(ids.slice([0, 1], [batch, time - 1]), config.vocabSize).toFloat();
  return nextTokenLogSoftmax(variables, ids, config).mul(targets).sum(-1) as tf.Tensor2D;
}

/** Entropy in nats of the next-token distribution at every position but the last: (B, T − 1), aligned with `nextTokenLogprobs`. */
export function nextTokenEntropy(variables: ModelVariables, ids: tf.Tensor2D, config: TinyModelConfig): tf.Tensor2D {
  const logSoftmax = nextTokenLogSoftmax(variables, ids, config);
  return tf.exp(logSoftmax).mul(logSoftmax).sum(-1).neg() as tf.Tensor2D;
}

// Log-softmax over the vocabulary after each of ids[:, :-1]: (B, T − 1, vocab).
function nextTokenLogSoftmax(variables: ModelVariables, ids: tf.Tensor2D, config: TinyModelConfig): tf.Tensor3D {
  const [batch, time] = ids.shape;
  return tf.logSoftmax(forwardLogits(variables, ids.slice([0, 0], [batch, time - 1]), config), -1);
}

/** tfjs variables holding `weights` (one per parameter, trainable). */
export function toVariables(weights: Map<string, Float32Array>, shapes: [string, number[]][]): ModelVariables {
  return new Map(shapes.map(([name, shape]) => [name, tf.variable(tf.tensor(weights.get(name)!, shape), true)]));
}

/** Copies the variables' current values out as Float32Arrays. */
export function readVariables(variables: ModelVariables): Map<string, Float32Array> {
  return new Map([...variables].map(([name, variable]) => [name, variable.dataSync() as Float32Array]));
}
