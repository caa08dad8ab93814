import * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { TinyModelConfigSchema } from "../../../src/models/tiny/model-config.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import { policyGradientStep, policyLoss, PolicyLossOptionsSchema } from "../../../src/models/tiny/policy-loss.js";
import { packTargetValues, packTokenBatch } from "../../../src/models/tiny/token-batch.js";
import { TrainableModel } from "../../../src/models/tiny/trainable-model.js";
import { encodeText, VOCABULARY } from "../../../src/models/tiny/tokenizer.js";
import { useWasmBackend } from "../../../src/models/tiny/wasm-backend.js";

// One sequence of 3 tokens: targets at positions 1 and 2, both in the loss.
const sequences = [[1, 2, 3]];
const mask = [[0, 1, 1]];
const advantages = [[0, 2, 2]];

function lossValue(kind: "importance_sampling" | "ppo", learner: number[], sampler: number[], normalization: "sum" | "token-mean" = "sum"): number {
  const packed = packTokenBatch(sequences, mask);
  const loss = policyLoss(PolicyLossOptionsSchema.parse({ kind, normalization }), packTargetValues(packed, advantages), packTargetValues(packed, [sampler]));
  return tf.tidy(() => loss(tf.tensor2d([learner], [1, 2]), packed).dataSync()[0]);
}

describe("policy losses", () => {
  it("importance sampling is −Σ exp(p−q)·A over loss tokens", async () => {
    await useWasmBackend();
    const value = lossValue("importance_sampling", [-1, -2], [0, -1, -1.5]);
    expect(value).toBeCloseTo(-(Math.exp(0) * 2 + Math.exp(-0.5) * 2), 5);
    expect(lossValue("importance_sampling", [-1, -2], [0, -1, -1.5], "token-mean")).toBeCloseTo(value / 2, 5);
  });

  it("PPO clips the ratio at 1+ε for a positive advantage", async () => {
    await useWasmBackend();
    // Ratios e^1 and 1: the first is clipped to 1.2.
    expect(lossValue("ppo", [-1, -2], [0, -2, -2])).toBeCloseTo(-(1.2 * 2 + 1 * 2), 5);
  });

  it("a step on a positive advantage raises the logprob of the sampled tokens and reports the sampler mismatch", async () => {
    const config = TinyModelConfigSchema.parse({ vocabSize: VOCABULARY.length, contextLength: 24, width: 16, layers: 1, heads: 2 });
    const learner = await TrainableModel.fromWeights(config, initialWeights(config, 1));
    const tokens = encodeText("3+4=7");
    const before = learner.sequenceLogprobs([tokens])[0];
    const batch = { tokenIds: [tokens], lossMask: [[0, 0, 0, 1, 1]], advantages: [tokens.map(() => 1)], samplerLogprobs: [before.map((value) => value - 0.1)] };
    const result = policyGradientStep(learner, batch, PolicyLossOptionsSchema.parse({ kind: "ppo" }), { learningRate: 1e-2 });
    expect(result.lossTokens).toBe(2);
    expect(result.logprobMismatch).toBeCloseTo(0.1, 4);
    const after = learner.sequenceLogprobs([tokens])[0];
    expect(after[3] + after[4]).toBeGreaterThan(before[3] + before[4]);
    learner.dispose();
  });
});
