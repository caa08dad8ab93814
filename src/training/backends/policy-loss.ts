/**
 * The local backend's policy-gradient losses in tfjs: Tinker's per-token semantics (p learner logprob, q the ratio's
 * denominator, r = exp(p − q), A advantage) and verl 0.9.1's core_algos losses, aggregated the way the batch asks.
 * Each verl loss follows verl/trainer/ppo/core_algos.py (compute_policy_loss_vanilla, _gspo, _cispo, _clip_cov,
 * _kl_cov, _geo_mean, _dro); integrations/verl/tests/test_policy_losses.py checks values and gradients against it.
 */
import * as tf from "@tensorflow/tfjs";
import type { Rng } from "../../core/random.js";
import type { LossAggregation, LossConfig, LossKind } from "../backend.js";
import { covarianceSelection } from "./covariance-selection.js";

/** Losses the local backend computes: all of them. */
export const LOCAL_LOSSES: readonly LossKind[] = ["importance_sampling", "ppo", "cispo", "gspo", "clip_cov", "kl_cov", "geo_mean", "dro", "cross_entropy"];

/** Per-token inputs, all [batch, positions] except advantages [batch, 1]. */
export interface LossInputs {
  learnerLogprobs: tf.Tensor2D;
  /** The ratio's denominator: the sampler's logprobs, or the proximal policy's when truncated importance sampling is on. */
  samplerLogprobs: tf.Tensor2D;
  mask: tf.Tensor2D;
  advantages: tf.Tensor2D;
  /** The reference policy's logprobs of the same tokens; needed when `loss.klCoef` > 0. */
  referenceLogprobs?: tf.Tensor2D;
  /** 1 where the policy-gradient term is kept, 0 where it is dropped (`loss.minEntropy`); absent = kept everywhere. */
  selectedTokens?: tf.Tensor2D;
  /** Truncated importance weights per token (held constant), multiplying each token's policy loss; absent = 1. */
  importanceWeights?: tf.Tensor2D;
  /** clip_cov's draw among more candidate tokens than it clips (verl draws with torch.randperm). */
  random?: Rng;
}

/** The whole batch's denominators when the loss is computed one micro-batch at a time (see `policyLoss`). */
export interface LossDenominators {
  /** token-mean: trained tokens; seq-mean-*: rows with trained tokens; sum: 1. */
  aggregation: number;
  /** geo_mean: every row (verl's torch.mean over the batch). */
  rows: number;
}

/**
 * The scalar loss to minimise, and the share of trained tokens whose ratio lay outside the clip range (ppo, gspo,
 * cispo, geo_mean, or dropped by clip_cov; else 0). `denominators` replace the batch's own ones when the batch is one
 * micro-batch of a larger one: the micro-batches' losses (and gradients) then add up to the whole batch's.
 */
export function policyLoss(
  inputs: LossInputs,
  loss: LossConfig,
  aggregation: LossAggregation,
  denominators?: LossDenominators,
): { loss: tf.Scalar; clipFraction: tf.Scalar; klToReference: tf.Scalar } {
  const { learnerLogprobs: p, samplerLogprobs: q, mask, referenceLogprobs, selectedTokens } = inputs;
  const advantages = inputs.advantages.mul(tf.onesLike(mask)) as tf.Tensor2D;
  const clipFraction = (clipped: tf.Tensor) => clipped.toFloat().mul(mask).sum().div(tf.maximum(mask.sum(), 1)) as tf.Scalar;
  let perToken: tf.Tensor2D | undefined;
  let policyTerm: tf.Scalar;
  let clipped: tf.Scalar = tf.scalar(0);
  if (loss.kind === "geo_mean") {
    const result = geometricMeanLoss(p, q, mask, advantages, loss, inputs.importanceWeights, selectedTokens);
    policyTerm = result.perRow.sum().div(denominators?.rows ?? mask.shape[0]) as tf.Scalar;
    clipped = clipFraction(result.clipped);
  } else {
    const result = tokenLoss(p, q, mask, advantages, loss, inputs.random);
    perToken = result.perToken;
    if (result.clipped) clipped = clipFraction(result.clipped);
    if (inputs.importanceWeights) perToken = perToken.mul(inputs.importanceWeights) as tf.Tensor2D;
    // Dropped tokens still count in the denominator, so keeping fewer tokens does not scale up the kept ones.
    if (selectedTokens) perToken = perToken.mul(selectedTokens) as tf.Tensor2D;
    policyTerm = aggregate(perToken, mask, aggregation, denominators?.aggregation);
  }
  let klToReference: tf.Scalar = tf.scalar(0);
  if (loss.klCoef > 0) {
    if (!referenceLogprobs) throw new Error("policyLoss: loss.klCoef > 0 needs the reference policy's logprobs");
    const kl = lowVarianceKl(p, referenceLogprobs);
    // verl aggregates the KL term on its own with the same loss_agg_mode and adds it (actor's kl_loss).
    policyTerm = policyTerm.add(aggregate(kl.mul(loss.klCoef) as tf.Tensor2D, mask, aggregation, denominators?.aggregation));
    klToReference = kl.mul(mask).sum().div(tf.maximum(mask.sum(), 1));
  }
  return { loss: policyTerm, clipFraction: clipped, klToReference };
}

/** Each token's loss (to minimise, before the mask) for every loss but geo_mean, and which tokens were clipped. */
function tokenLoss(
  p: tf.Tensor2D,
  q: tf.Tensor2D,
  mask: tf.Tensor2D,
  advantages: tf.Tensor2D,
  loss: LossConfig,
  random: Rng | undefined,
): { perToken: tf.Tensor2D; clipped?: tf.Tensor } {
  const low = 1 - loss.clipLow;
  const high = 1 + loss.clipHigh;
  const outside = (ratio: tf.Tensor) => tf.logicalOr(ratio.less(low), ratio.greater(high));
  switch (loss.kind) {
    case "importance_sampling":
      return { perToken: tf.exp(p.sub(q)).mul(advantages).neg() as tf.Tensor2D };
    case "ppo": {
      // verl clamps the log-ratio to ±20 before exp "for stability".
      const ratio = tf.exp(p.sub(q).clipByValue(-20, 20));
      const unclipped = advantages.mul(ratio).neg();
      const clippedLoss = advantages.mul(ratio.clipByValue(low, high)).neg();
      let perToken = tf.maximum(unclipped, clippedLoss);
      if (loss.dualClip !== undefined) {
        // A < 0: min(−A·c, max(…)), so a large ratio cannot make a bad token's loss arbitrarily large.
        perToken = tf.where(advantages.less(0), tf.minimum(advantages.mul(-loss.dualClip), perToken), perToken);
      }
      return { perToken: perToken as tf.Tensor2D, clipped: outside(ratio) };
    }
    case "cispo": {
      // −sg(clip(r))·A·p: the clipped ratio only weighs the REINFORCE term (MiniMax-M1, arXiv 2506.13585).
      const ratio = tf.exp(p.sub(q).clipByValue(-20, 20));
      return { perToken: stopGradient(ratio.clipByValue(low, high)).mul(advantages).mul(p).neg() as tf.Tensor2D, clipped: outside(ratio) };
    }
    case "gspo": {
      // The sequence's mean log-ratio, held constant, with the token's own p − sg(p) for the gradient (arXiv 2507.18071).
      const lengths = tf.maximum(mask.sum(1, true), 1);
      const sequenceLogRatio = stopGradient(p.sub(q).mul(mask).sum(1, true).div(lengths));
      const ratio = tf.exp(p.sub(stopGradient(p)).add(sequenceLogRatio).minimum(10));
      const perToken = tf.maximum(advantages.mul(ratio).neg(), advantages.mul(ratio.clipByValue(low, high)).neg());
      return { perToken: perToken as tf.Tensor2D, clipped: outside(ratio) };
    }
    case "clip_cov": {
      const ratio = tf.exp(p.sub(q));
      const unclipped = advantages.mul(ratio).neg();
      const clippedLoss = advantages.mul(ratio.clipByValue(low, high)).neg();
      const settings = { ratio: 0.0002, lower: 1, upper: 5, ...loss.clipCov };
      // Tokens the ppo clip already binds are never candidates (verl's clip_by_origin).
      const excluded = clippedLoss.greater(unclipped).dataSync();
      const chosen = covarianceSelection(advantages.dataSync(), p.dataSync(), mask.dataSync(), {
        share: settings.ratio,
        isCandidate: (covariance, index) => excluded[index] === 0 && covariance > settings.lower && covariance < settings.upper,
        pick: "random",
        random,
      });
      const kept = tf.tensor(chosen.map((isChosen) => (isChosen ? 0 : 1)), mask.shape);
      return { perToken: tf.maximum(unclipped, clippedLoss).mul(kept) as tf.Tensor2D, clipped: kept.equal(0) };
    }
    case "kl_cov": {
      const logRatio = p.sub(q);
      const ratioLoss = advantages.mul(tf.exp(logRatio)).neg();
      const settings = { ratio: 0.0002, coef: 0.1, ...loss.klCov };
      const chosen = covarianceSelection(advantages.dataSync(), p.dataSync(), mask.dataSync(), { share: settings.ratio, isCandidate: () => true, pick: "largest" });
      const penalised = tf.tensor(chosen.map((isChosen) => (isChosen ? 1 : 0)), mask.shape);
      return { perToken: ratioLoss.add(logRatio.abs().mul(settings.coef).mul(penalised)) as tf.Tensor2D };
    }
    case "dro": {
      const beta = loss.beta ?? 0.05;
      return { perToken: p.mul(advantages).sub(p.sub(q).square().mul(0.5 * beta)).neg() as tf.Tensor2D };
    }
    case "cross_entropy":
      return { perToken: p.neg() as tf.Tensor2D };
    default:
      throw new Error(`policyLoss: loss "${loss.kind}" is computed per sequence`);
  }
}

/**
 * GMPO (arXiv 2507.20673, verl's geo_mean): each row's loss is −Ā·exp(mean over its tokens of the sign-aware clipped
 * log-ratio), Ā its mean advantage; truncated importance weights enter as their geometric mean over the row.
 */
function geometricMeanLoss(
  p: tf.Tensor2D,
  q: tf.Tensor2D,
  mask: tf.Tensor2D,
  advantages: tf.Tensor2D,
  loss: LossConfig,
  importanceWeights: tf.Tensor2D | undefined,
  selectedTokens: tf.Tensor2D | undefined,
): { perRow: tf.Tensor1D; clipped: tf.Tensor } {
  const logRatio = p.sub(q);
  const sign = tf.sign(advantages);
  const clampedLogRatio = logRatio.clipByValue(-loss.clipLow, loss.clipHigh);
  const pessimistic = sign.mul(tf.minimum(sign.mul(logRatio), sign.mul(clampedLogRatio)));
  const weight = selectedTokens ? mask.mul(selectedTokens) : mask;
  const tokens = mask.sum(1).add(1e-8);
  const ratio = tf.exp(pessimistic.mul(weight).sum(1).div(tokens));
  const meanAdvantage = advantages.mul(mask).sum(1).div(tokens);
  let perRow = meanAdvantage.mul(ratio).neg() as tf.Tensor1D;
  if (importanceWeights) perRow = perRow.mul(tf.exp(tf.log(importanceWeights.add(1e-10)).mul(mask).sum(1).div(tokens))) as tf.Tensor1D;
  return { perRow, clipped: logRatio.notEqual(clampedLogRatio) };
}

/** A tensor's value with no gradient through it (torch's detach), which tfjs has no op for. */
const stopGradient = tf.customGrad(((input: tf.Tensor) => ({ value: input.clone(), gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy) })) as unknown as Parameters<typeof tf.customGrad>[0]) as (
  input: tf.Tensor,
) => tf.Tensor;

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
  const masked = perToken.mul(mask);
  if (aggregation === "sum") return masked.sum();
  if (aggregation === "token-mean") return masked.sum().div(denominator ?? tf.maximum(mask.sum(), 1));
  const tokensPerRow = mask.sum(1);
  const hasTokens = tokensPerRow.greater(0).toFloat();
  const rowLosses = aggregation === "seq-mean-token-mean" ? masked.sum(1).div(tf.maximum(tokensPerRow, 1)) : masked.sum(1);
  const sequenceMean: tf.Scalar = rowLosses.mul(hasTokens).sum().div(denominator ?? tf.maximum(hasTokens.sum(), 1));
  return aggregation === "seq-mean-token-sum-norm" ? sequenceMean.div(mask.shape[1]) : sequenceMean;
}

/** The whole batch's denominators for `aggregation` (see `policyLoss`): trained tokens, rows with tokens, or 1 for sum; and its rows. */
export function lossDenominators(lossMasks: readonly (readonly number[])[], aggregation: LossAggregation): LossDenominators {
  const rows = Math.max(1, lossMasks.length);
  if (aggregation === "sum") return { aggregation: 1, rows };
  if (aggregation === "token-mean") return { aggregation: Math.max(1, lossMasks.reduce((sum, mask) => sum + trainedTokens(mask), 0)), rows };
  return { aggregation: Math.max(1, lossMasks.filter((mask) => trainedTokens(mask) > 0).length), rows };
}

// Token 0 is never predicted, so its mask entry never counts.
function trainedTokens(mask: readonly number[]): number {
  let count = 0;
  for (let index = 1; index < mask.length; index++) count += mask[index]!;
  return count;
}
