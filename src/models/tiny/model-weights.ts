/** The tiny model's weights as plain Float32Arrays by name: seeded initialisation and the count of parameters. */
import { parameterShapes, type TinyModelConfig } from "./model-config.js";
import { clampedNormal, createRng } from "../../core/random.js";

/** Parameter values by name, each a flat row-major Float32Array. */
export type ModelWeights = Map<string, Float32Array>;

/** GPT-2 style initialisation from a seed: N(0, 0.02), residual projections scaled by 1/√(2·layers), norms at 1. */
export function initialWeights(config: TinyModelConfig, seed: number): ModelWeights {
  const random = createRng(seed);
  const weights: ModelWeights = new Map();
  const residualScale = 1 / Math.sqrt(2 * config.layers);
  for (const [name, shape] of parameterShapes(config)) {
    const values = new Float32Array(shape.reduce((product, size) => product * size, 1));
    if (name.endsWith(".scale")) values.fill(1);
    else if (!name.endsWith(".bias")) {
      const std = name.endsWith("attentionOutput.weight") || name.endsWith("mlpOut.weight") ? 0.02 * residualScale : 0.02;
      for (let index = 0; index < values.length; index++) values[index] = std * clampedNormal(random);
    }
    weights.set(name, values);
  }
  return weights;
}

/** Number of scalar parameters. */
export function parameterCount(weights: ModelWeights): number {
  let total = 0;
  for (const values of weights.values()) total += values.length;
  return total;
}
