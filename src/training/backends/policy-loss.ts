/**
 * The local backend's policy-gradient losses in tfjs, with Tinker's per-token semantics (p learner logprob,
 * q sampler logprob, r = exp(p − q), A advantage), aggregated the way the batch asks.
 */
import * as tf from "@tensorflow/tfjs";
import type { LossAggregation, LossConfig, LossKind } from "../backend.js";

/** Losses the local backend computes (cispo needs a stop-gradient through the ratio that tfjs lacks). */
export const LOCAL_LOSSES: readonly LossKind[] = ["importance_sampling", "ppo", "dro", "cross_entropy"];

/** Per-token inputs, all [batch, positions] except advantages [batch, 1]. */
export interface LossInputs {
  learnerLogprobs: tf.Tensor2D;
  samplerLogprobs: tf.Tensor2D;
  mask: tf.Tensor2D;
  advantages: tf.Tensor2D;
  /** The reference policy's logprobs of the same tokens; needed when `loss.klCoef` > 0. */
  referenceLogprobs?: tf.Tensor2D;
  /** 1 where the policy-gradient term is kept, 0 where it is dropped (`loss.minEntropy`); absent = kept everywhere. */
  selectedTokens?: tf.Tensor2D;
}

/**
 * The scalar loss to minimise, and the share of trained tokens whose ratio was clipped (ppo only, else 0).
 * `denominator` replaces the batch's own one (trained tokens for token-mean, rows with tokens for seq-mean-token-mean)
 * when the batch is one micro-batch of a larger one: the micro-batches' losses (and gradients) then add up to the
 * whole batch's.
 */
export function policyLoss(
  inputs: LossInputs,
  loss: LossConfig,
  aggregation: LossAggregation,
  denominator?: number,
): { loss: tf.Scalar; clipFraction: tf.Scalar; klToReference: tf.Scalar } {
  const { learnerLogprobs: p, samplerLogprobs: q, mask, advantages, referenceLogprobs, selectedTokens } = inputs;
  const ratio = tf.exp(p.sub(q));
  let objective: tf.Tensor2D;
  let clipFraction: tf.Scalar = tf.scalar(0);
  switch (loss.kind) {
    case "importance_sampling":
      objective = ratio.mul(advantages);
      break;
    case "ppo": {
      const low = 1 - loss.clipLow;
      const high = 1 + loss.clipHigh;
      const clipped = ratio.clipByValue(low, high);
      objective = tf.minimum(ratio.mul(advantages), clipped.mul(advantages));
      const isClipped = tf.logicalOr(ratio.less(low), ratio.greater(high)).toFloat().mul(mask);
      clipFraction = isClipped.sum().div(tf.maximum(mask.sum(), 1));
      break;
    }
    case "dro": {
      const beta = loss.beta ?? 0.05;
      objective = p.mul(advantages).sub(p.sub(q).square().mul(0.5 * beta));
      break;
    }
    case "cross_entropy":
      objective = p;
      break;
    default:
      throw new Error(`policyLoss: loss "${loss.kind}" is not computed locally`);
  }
  // Dropped tokens still count in the denominator, so keeping fewer tokens does not scale up the kept ones.
  if (selectedTokens) objective = objective.mul(selectedTokens);
  let klToReference: tf.Scalar = tf.scalar(0);
  if (loss.klCoef > 0) {
    if (!referenceLogprobs) throw new Error("policyLoss: loss.klCoef > 0 needs the reference policy's logprobs");
    const kl = lowVarianceKl(p, referenceLogprobs);
    objective = objective.sub(kl.mul(loss.klCoef));
    klToReference = kl.mul(mask).sum().div(tf.maximum(mask.sum(), 1));
  }
  return { loss: aggregate(objective.mul(mask).neg() as tf.Tensor2D, mask, aggregation, denominator), clipFraction, klToReference };
}

/**
 * Per-token KL(learner ‖ reference) by the k3 estimator exp(ref − p) − (ref − p) − 1 on tokens the learner's sampler
 * drew: never negative, unbiased, and low in variance (verl's low_var_kl, clamped to [−10, 10] likewise).
 */
export function lowVarianceKl(learnerLogprobs: tf.Tensor2D, referenceLogprobs: tf.Tensor2D): tf.Tensor2D {
  const logRatio = referenceLogprobs.sub(learnerLogprobs).clipByValue(-20, 20);
  return tf.exp(logRatio).sub(logRatio).sub(1).clipByValue(-10, 10) as tf.Tensor2D;
}

/**
 * verl's agg_loss on one batch: sum, mean over all trained tokens, or mean over sequences (empty rows left out) of
 * their per-token mean or sum; `-norm` then divides by the mask's width (verl's default loss_scale_factor, the horizon).
 */
function aggregate(perToken: tf.Tensor2D, mask: tf.Tensor2D, aggregation: LossAggregation, denominator?: number): tf.Scalar {
  if (aggregation === "sum") return perToken.sum();
  if (aggregation === "token-mean") return perToken.sum().div(denominator ?? tf.maximum(mask.sum(), 1));
  const tokensPerRow = mask.sum(1);
  const hasTokens = tokensPerRow.greater(0).toFloat();
  const rowLosses = aggregation === "seq-mean-token-mean" ? perToken.sum(1).div(tf.maximum(tokensPerRow, 1)) : perToken.sum(1);
  const sequenceMean: tf.Scalar = rowLosses.mul(hasTokens).sum().div(denominator ?? tf.maximum(hasTokens.sum(), 1));
  return aggregation === "seq-mean-token-sum-norm" ? sequenceMean.div(mask.shape[1]) : sequenceMean;
}

/** The whole batch's denominator for `aggregation` (see `policyLoss`): trained tokens, rows with tokens, or 1 for sum. */
export function lossDenominator(lossMasks: readonly (readonly number[])[], aggregation: LossAggregation): number {
  if (aggregation === "sum") return 1;
  if (aggregation === "token-mean") return Math.max(1, lossMasks.reduce((sum, mask) => sum + trainedTokens(mask), 0));
  return Math.max(1, lossMasks.filter((mask) => trainedTokens(mask) > 0).length);
}

// Token 0 is never predicted, so its mask entry never counts.
function trainedTokens(mask: readonly number[]): number {
  let count = 0;
  for (let index = 1; index < mask.length; index++) count += mask[index]!;
  return count;
}
