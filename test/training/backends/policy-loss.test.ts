import { describe, expect, it } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { lowVarianceKl, policyLoss } from "../../../src/training/backends/policy-loss.js";
import { LossConfigSchema } from "../../../src/training/backend.js";

// Two sequences of three positions; row 0 trains positions 1..2, row 1 trains position 0.
const inputs = () => ({
  learnerLogprobs: tf.tensor2d([[-1, Math.log(0.6), Math.log(0.2)], [Math.log(0.5), -1, -1]]),
  samplerLogprobs: tf.tensor2d([[0, Math.log(0.5), Math.log(0.4)], [Math.log(0.25), 0, 0]]),
  mask: tf.tensor2d([[0, 1, 1], [1, 0, 0]]),
  advantages: tf.tensor2d([[1], [-2]]),
});
const value = (scalar: tf.Scalar) => scalar.dataSync()[0]!;

describe("policy losses", () => {
  it("importance sampling sums −r·A over trained tokens", () => {
    // ratios: row 0 → 1.2 and 0.5 (A = 1); row 1 → 2 (A = −2): −(1.2 + 0.5 − 4) = 2.3
    const { loss } = policyLoss(inputs(), LossConfigSchema.parse({ kind: "importance_sampling" }), "sum");
    expect(value(loss)).toBeCloseTo(2.3, 5);
  });

  it("ppo takes the pessimistic clipped term and reports the clipped share", () => {
    // clip to [0.8, 1.2]: row 0 → min(1.2, 1.2) + min(0.5, 0.8) = 1.7; row 1 → min(−4, −2.4) = −4 → loss 2.3
    const { loss, clipFraction } = policyLoss(inputs(), LossConfigSchema.parse({ kind: "ppo" }), "sum");
    expect(value(loss)).toBeCloseTo(2.3, 5);
    expect(value(clipFraction)).toBeCloseTo(2 / 3, 5);
  });

  it("aggregates by token mean and by sequence mean of token means", () => {
    const config = LossConfigSchema.parse({ kind: "importance_sampling" });
    expect(value(policyLoss(inputs(), config, "token-mean").loss)).toBeCloseTo(2.3 / 3, 5);
    // row 0 mean −0.85, row 1 mean 4 → (−0.85 + 4)/2
    expect(value(policyLoss(inputs(), config, "seq-mean-token-mean").loss)).toBeCloseTo((4 - 0.85) / 2, 5);
  });

  it("cross entropy is the negative log-likelihood of trained tokens", () => {
    const { loss } = policyLoss(inputs(), LossConfigSchema.parse({ kind: "cross_entropy" }), "sum");
    expect(value(loss)).toBeCloseTo(-(Math.log(0.6) + Math.log(0.2) + Math.log(0.5)), 5);
  });

  it("has the REINFORCE gradient at r = 1: d loss / d p = −A on trained tokens", () => {
    const base = inputs();
    const sampler = base.learnerLogprobs.clone(); // made outside the gradient so it is a constant
    const gradient = tf.grad((learner: tf.Tensor) =>
      policyLoss({ ...base, learnerLogprobs: learner as tf.Tensor2D, samplerLogprobs: sampler }, LossConfigSchema.parse({}), "sum").loss,
    )(base.learnerLogprobs);
    // + 0 turns tfjs's −0 into 0 for the comparison
    expect(Array.from(gradient.dataSync(), (entry) => entry + 0)).toEqual([0, -1, -1, 2, 0, 0]);
  });

  it("k3 KL to the reference is exp(ref − p) − (ref − p) − 1 per token, 0 where learner and reference agree", () => {
    const learner = tf.tensor2d([[Math.log(0.5), Math.log(0.2)]]);
    const reference = tf.tensor2d([[Math.log(0.5), Math.log(0.4)]]);
    // position 1: ref − p = log 2 → 2 − log 2 − 1
    expect(Array.from(lowVarianceKl(learner, reference).dataSync())).toEqual([0, expect.closeTo(1 - Math.log(2), 6)]);
  });

  it("klCoef adds β·KL to the loss, reports the mean KL, and its gradient pulls p back toward the reference", () => {
    const base = inputs();
    const referenceLogprobs = tf.tensor2d([[-1, Math.log(0.3), Math.log(0.2)], [Math.log(0.5), -1, -1]]);
    const config = LossConfigSchema.parse({ kind: "importance_sampling", klCoef: 0.5 });
    const withoutKl = value(policyLoss(base, LossConfigSchema.parse({ kind: "importance_sampling" }), "sum").loss);
    const { loss, klToReference } = policyLoss({ ...base, referenceLogprobs }, config, "sum");
    // only row 0 position 1 differs: ref − p = log 0.5
    const kl = 0.5 - Math.log(0.5) - 1;
    expect(value(loss)).toBeCloseTo(withoutKl + 0.5 * kl, 5);
    expect(value(klToReference)).toBeCloseTo(kl / 3, 5);
    // d(β·k3)/dp = β·(1 − exp(ref − p)) = 0.5·(1 − 0.5) > 0 on top of −A: minimising lowers p toward the reference
    const sampler = base.learnerLogprobs.clone();
    const gradient = tf.grad((learner: tf.Tensor) =>
      policyLoss({ ...base, learnerLogprobs: learner as tf.Tensor2D, samplerLogprobs: sampler, referenceLogprobs }, config, "sum").loss,
    )(base.learnerLogprobs);
    expect(gradient.dataSync()[1]).toBeCloseTo(-1 + 0.25, 5);
    expect(() => policyLoss(base, config, "sum")).toThrow(/needs the reference policy's logprobs/);
  });

  it("selectedTokens drops the policy-gradient term of unselected tokens but keeps them in the token-mean denominator", () => {
    const config = LossConfigSchema.parse({ kind: "importance_sampling" });
    // keep row 0 position 2 (ratio 0.5, A = 1) and row 1 position 0 (ratio 2, A = −2): −(0.5 − 4) / 3 trained tokens
    const selectedTokens = tf.tensor2d([[1, 0, 1], [1, 1, 1]]);
    expect(value(policyLoss({ ...inputs(), selectedTokens }, config, "token-mean").loss)).toBeCloseTo(3.5 / 3, 5);
    const sampler = inputs().learnerLogprobs;
    const gradient = tf.grad((learner: tf.Tensor) =>
      policyLoss({ ...inputs(), learnerLogprobs: learner as tf.Tensor2D, samplerLogprobs: sampler, selectedTokens }, config, "sum").loss,
    )(inputs().learnerLogprobs);
    expect(Array.from(gradient.dataSync(), (entry) => entry + 0)).toEqual([0, 0, -1, 2, 0, 0]);
  });
});
