/**
 * Policy-gradient losses for the local training backend, with Tinker's per-token definitions:
 * importance sampling −Σ exp(p−q)·A and clipped PPO −Σ min(r·A, clip(r, 1−ε, 1+ε)·A), r = exp(p−q),
 * where p is the learner's logprob and q the sampler's, over tokens with loss mask 1.
 */
import * as tf from "@tensorflow/tfjs";
import { z } from "zod";
import { packTargetValues } from "./token-batch.js";
import type { StepResult, TokenLoss, TrainableModel } from "./trainable-model.js";
import type { AdamOptions } from "./adam.js";

export const PolicyLossOptionsSchema = z
  .object({
    kind: z.enum(["importance_sampling", "ppo"]),
    /** PPO clip range ε. */
    clipEpsilon: z.number().positive().default(0.2),
    /** "sum" is Tinker's semantics; "token-mean" divides by the number of loss tokens in the batch. */
    normalization: z.enum(["sum", "token-mean"]).default("token-mean"),
  })
  .strict();
export type PolicyLossOptions = z.infer<typeof PolicyLossOptionsSchema>;

/** A batch of sampled sequences to learn from; every per-token array is aligned with `tokenIds`. */
export interface PolicyBatch {
  tokenIds: number[][];
  /** 1 on sampled (model) tokens, 0 on prompt and tool tokens. */
  lossMask: number[][];
  /** Per-token advantages (repeat the sequence advantage on each of its tokens). */
  advantages: number[][];
  /** The sampler's logprob of each token (any value where the mask is 0). */
  samplerLogprobs: number[][];
}

/** The loss as a TokenLoss over packed target positions; `packedAdvantages`/`packedSampler` come from packTargetValues. */
export function policyLoss(options: PolicyLossOptions, packedAdvantages: Float32Array, packedSampler: Float32Array): TokenLoss {
  return (logprobs, packed) => {
    const shape: [number, number] = [packed.batch, packed.time - 1];
    const mask = tf.tensor2d(packed.targetWeights, shape);
    const advantages = tf.tensor2d(packedAdvantages, shape);
    // Masked positions get ratio 1 whatever the stored sampler value is (no exp overflow on junk values).
    const logRatio = tf.where(mask.greater(0), logprobs.sub(tf.tensor2d(packedSampler, shape)), tf.zerosLike(logprobs));
    const ratio = tf.exp(logRatio);
    const objective =
      options.kind === "importance_sampling"
        ? ratio.mul(advantages)
        : tf.minimum(ratio.mul(advantages), ratio.clipByValue(1 - options.clipEpsilon, 1 + options.clipEpsilon).mul(advantages));
    const total = objective.mul(mask).sum().neg();
    return (options.normalization === "sum" ? total : total.div(mask.sum().maximum(1))) as tf.Scalar;
  };
}

/** What a policy step reports besides the loss: how far the learner's logprobs are from the sampler's. */
export interface PolicyStepResult extends StepResult {
  /** Mean |learner − sampler| logprob over loss tokens, before the update. */
  logprobMismatch: number;
  lossTokens: number;
}

/** One Adam step of `learner` on a policy-gradient batch. */
export function policyGradientStep(
  learner: TrainableModel,
  batch: PolicyBatch,
  lossOptions: PolicyLossOptions,
  adamOptions: AdamOptions,
): PolicyStepResult {
  const stub = { batch: batch.tokenIds.length, time: Math.max(2, ...batch.tokenIds.map((row) => row.length)), ids: new Int32Array(0), targetWeights: new Float32Array(0) };
  const loss = policyLoss(lossOptions, packTargetValues(stub, batch.advantages), packTargetValues(stub, batch.samplerLogprobs));
  const result = learner.step(batch.tokenIds, batch.lossMask, loss, adamOptions);
  let mismatch = 0;
  let lossTokens = 0;
  batch.tokenIds.forEach((row, rowIndex) => {
    for (let position = 1; position < row.length; position++) {
      if (!batch.lossMask[rowIndex][position]) continue;
      mismatch += Math.abs(result.logprobs[rowIndex][position] - batch.samplerLogprobs[rowIndex][position]);
      lossTokens += 1;
    }
  });
  return { ...result, logprobMismatch: lossTokens > 0 ? mismatch / lossTokens : 0, lossTokens };
}
