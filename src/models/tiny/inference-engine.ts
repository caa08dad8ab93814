/**
 * The sampler's forward pass in plain JavaScript with a KV cache: one token at a time, no tfjs op overhead.
 * It computes the same function as transformer.ts (tests compare the two), which is what makes sampling fast.
 */
import type { TinyModelConfig } from "./model-config.js";
import type { ModelWeights } from "./model-weights.js";

const NORM_EPSILON = 1e-5;

// The loops below index flat typed arrays whose sizes the config fixes (width, heads, context length, vocabulary),
// so every `array[index]!` is in range by construction; checking each read would slow the hot loop for nothing.

/** Keys and values of every position seen so far, per layer ([position][width], flat). */
export interface KvCache {
  length: number;
  keys: Float32Array[];
  values: Float32Array[];
}

export class InferenceEngine {
  private readonly weight: (name: string) => Float32Array;
  // Scratch buffers reused by every step.
  private readonly normed: Float32Array;
  private readonly qkv: Float32Array;
  private readonly attended: Float32Array;
  private readonly projected: Float32Array;
  private readonly inner: Float32Array;
  private readonly scores: Float32Array;

  constructor(
    readonly config: TinyModelConfig,
    weights: ModelWeights,
  ) {
    this.weight = (name) => {
      const values = weights.get(name);
      if (!values) throw new Error(`Missing parameter "${name}"`);
      return values;
    };
    const { width, mlpRatio, contextLength } = config;
    this.normed = new Float32Array(width);
    this.qkv = new Float32Array(3 * width);
    this.attended = new Float32Array(width);
    this.projected = new Float32Array(width);
    this.inner = new Float32Array(mlpRatio * width);
    this.scores = new Float32Array(contextLength);
  }

  /** An empty cache sized for the full context. */
  createCache(): KvCache {
    const size = this.config.contextLength * this.config.width;
    return {
      length: 0,
      keys: Array.from({ length: this.config.layers }, () => new Float32Array(size)),
      values: Array.from({ length: this.config.layers }, () => new Float32Array(size)),
    };
  }

  /** A copy of a cache, so that n choices can continue one shared prompt. */
  cloneCache(cache: KvCache): KvCache {
    return { length: cache.length, keys: cache.keys.map((keys) => keys.slice()), values: cache.values.map((values) => values.slice()) };
  }

  /** Feeds one token at the next position; returns the logits for the token after it. */
  step(token: number, cache: KvCache): Float32Array {
    const { width, heads, contextLength, vocabSize, layers, mlpRatio } = this.config;
    const position = cache.length;
    if (position >= contextLength) throw new Error(`Cannot feed position ${position}: the context is only ${contextLength}`);
    const headWidth = width / heads;
    const hidden = new Float32Array(width);
    const tokenEmbedding = this.weight("tokenEmbedding");
    const positionEmbedding = this.weight("positionEmbedding");
    for (let index = 0; index < width; index++) {
      hidden[index] = tokenEmbedding[token * width + index]! + positionEmbedding[position * width + index]!;
    }
    for (let layer = 0; layer < layers; layer++) {
      const prefix = `layer${layer}.`;
      layerNorm(hidden, this.weight(`${prefix}attentionNorm.scale`), this.weight(`${prefix}attentionNorm.bias`), this.normed);
      affine(this.normed, this.weight(`${prefix}qkv.weight`), this.weight(`${prefix}qkv.bias`), this.qkv);
      const keys = cache.keys[layer];
      const values = cache.values[layer];
      if (!keys || !values) throw new Error(`The cache has no layer ${layer}: it was made for another model`);
      keys.set(this.qkv.subarray(width, 2 * width), position * width);
      values.set(this.qkv.subarray(2 * width, 3 * width), position * width);
      const scale = 1 / Math.sqrt(headWidth);
      for (let head = 0; head < heads; head++) {
        const offset = head * headWidth;
        let maximum = -Infinity;
        for (let past = 0; past <= position; past++) {
          let dot = 0;
          for (let index = 0; index < headWidth; index++) dot += this.qkv[offset + index]! * keys[past * width + offset + index]!;
          const score = dot * scale;
          this.scores[past] = score;
          if (score > maximum) maximum = score;
        }
        let total = 0;
        for (let past = 0; past <= position; past++) {
          const exponential = Math.exp(this.scores[past]! - maximum);
          this.scores[past] = exponential;
          total += exponential;
        }
        for (let index = 0; index < headWidth; index++) this.attended[offset + index] = 0;
        for (let past = 0; past <= position; past++) {
          const weight = this.scores[past]! / total;
          for (let index = 0; index < headWidth; index++) this.attended[offset + index]! += weight * values[past * width + offset + index]!;
        }
      }
      affine(this.attended, this.weight(`${prefix}attentionOutput.weight`), this.weight(`${prefix}attentionOutput.bias`), this.projected);
      for (let index = 0; index < width; index++) hidden[index]! += this.projected[index]!;
      layerNorm(hidden, this.weight(`${prefix}mlpNorm.scale`), this.weight(`${prefix}mlpNorm.bias`), this.normed);
      affine(this.normed, this.weight(`${prefix}mlpIn.weight`), this.weight(`${prefix}mlpIn.bias`), this.inner);
      for (let index = 0; index < mlpRatio * width; index++) this.inner[index] = gelu(this.inner[index]!);
      affine(this.inner, this.weight(`${prefix}mlpOut.weight`), this.weight(`${prefix}mlpOut.bias`), this.projected);
      for (let index = 0; index < width; index++) hidden[index]! += this.projected[index]!;
    }
    cache.length = position + 1;
    layerNorm(hidden, this.weight("finalNorm.scale"), this.weight("finalNorm.bias"), this.normed);
    // Tied output head: logits = normed · tokenEmbedding^T.
    const logits = new Float32Array(vocabSize);
    for (let token = 0; token < vocabSize; token++) {
      let dot = 0;
      for (let index = 0; index < width; index++) dot += this.normed[index]! * tokenEmbedding[token * width + index]!;
      logits[token] = dot;
    }
    return logits;
  }

  /** Feeds a whole prompt; returns the logits after its last token. */
  prefill(tokens: readonly number[], cache: KvCache): Float32Array {
    if (tokens.length === 0) throw new Error("Cannot prefill an empty prompt");
    let logits: Float32Array = new Float32Array(0);
    for (const token of tokens) logits = this.step(token, cache);
    return logits;
  }
}

function layerNorm(input: Float32Array, scale: Float32Array, bias: Float32Array, output: Float32Array): void {
  const size = input.length;
  let mean = 0;
  for (let index = 0; index < size; index++) mean += input[index]!;
  mean /= size;
  let variance = 0;
  for (let index = 0; index < size; index++) variance += (input[index]! - mean) ** 2;
  const inverse = 1 / Math.sqrt(variance / size + NORM_EPSILON);
  for (let index = 0; index < size; index++) output[index] = (input[index]! - mean) * inverse * scale[index]! + bias[index]!;
}

// output = input [in] · weight [in, out] + bias [out]; the inner loop runs along a contiguous weight row.
function affine(input: Float32Array, weight: Float32Array, bias: Float32Array, output: Float32Array): void {
  const outputs = output.length;
  output.set(bias);
  for (let row = 0; row < input.length; row++) {
    const value = input[row]!;
    const base = row * outputs;
    for (let column = 0; column < outputs; column++) output[column]! += value * weight[base + column]!;
  }
}

function gelu(value: number): number {
  return 0.5 * value * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (value + 0.044715 * value * value * value)));
}
