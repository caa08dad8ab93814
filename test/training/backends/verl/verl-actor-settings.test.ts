import { describe, expect, it } from "vitest";
import { LossConfigSchema, OptimizerConfigSchema } from "../../../../src/training/backend.js";
import { actorOverrides, assertMatchesActor, NO_DUAL_CLIP, NO_GRADIENT_CLIP, type ActorOptions } from "../../../../src/training/backends/verl/verl-actor-settings.js";
import type { TrainerSettings } from "../../../../src/training/backends/verl/verl-bridge-protocol.js";

const options: ActorOptions = {
  loss: LossConfigSchema.parse({ kind: "ppo", clipLow: 0.2, clipHigh: 0.28 }),
  lossAggregation: "token-mean",
  optimizer: OptimizerConfigSchema.parse({ learningRate: 2e-4, gradClipNorm: 1 }),
  substeps: 1,
};
const settings: TrainerSettings = {
  lossMode: "vanilla",
  clipRatioLow: 0.2,
  clipRatioHigh: 0.28,
  lossAggMode: "token-mean",
  useKlLoss: false,
  klLossCoef: 0.001,
  learningRate: 2e-4,
  weightDecay: 0,
  gradClip: 1,
  ppoEpochs: 1,
  clipRatioC: NO_DUAL_CLIP,
};

describe("actorOverrides", () => {
  it("turns the run's loss and optimizer into the actor's Hydra keys", () => {
    expect(actorOverrides(options)).toEqual([
      "actor_rollout_ref.actor.policy_loss.loss_mode=vanilla",
      `actor_rollout_ref.actor.clip_ratio_c=${NO_DUAL_CLIP}`,
      "algorithm.rollout_correction.rollout_is=null",
      "actor_rollout_ref.actor.clip_ratio_low=0.2",
      "actor_rollout_ref.actor.clip_ratio_high=0.28",
      "actor_rollout_ref.actor.loss_agg_mode=token-mean",
      "actor_rollout_ref.actor.use_kl_loss=false",
      "actor_rollout_ref.actor.optim.lr=0.0002",
      "actor_rollout_ref.actor.optim.weight_decay=0",
      "actor_rollout_ref.actor.grad_clip=1",
      "actor_rollout_ref.actor.ppo_epochs=1",
    ]);
  });

  it("switches on the low_var_kl loss with its coefficient when klCoef is set, and unclips without gradClipNorm", () => {
    const overrides = actorOverrides({ ...options, loss: { ...options.loss, klCoef: 0.01 }, optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-6 }) });
    expect(overrides).toContain("actor_rollout_ref.actor.use_kl_loss=true");
    expect(overrides).toContain("actor_rollout_ref.actor.kl_loss_coef=0.01");
    expect(overrides).toContain("actor_rollout_ref.actor.kl_loss_type=low_var_kl");
    expect(overrides).toContain(`actor_rollout_ref.actor.grad_clip=${NO_GRADIENT_CLIP}`);
  });
});

describe("assertMatchesActor", () => {
  it("accepts a batch matching the job (the KL coefficient is ignored while the KL loss is off)", () => {
    expect(() => assertMatchesActor("verl", options, settings)).not.toThrow();
  });

  it.each([
    [{ ...settings, clipRatioHigh: 0.2 }, `cannot honour loss.clipHigh "0.28". Supported: 0.2 (the running job's actor_rollout_ref.actor.clip_ratio_high`],
    [{ ...settings, lossAggMode: "seq-mean-token-mean" }, `cannot honour lossAggregation "token-mean". Supported: seq-mean-token-mean`],
    [{ ...settings, useKlLoss: true }, `cannot honour loss.klCoef "false". Supported: true (the running job's actor_rollout_ref.actor.use_kl_loss`],
    [{ ...settings, ppoEpochs: 2 }, `cannot honour substeps "1". Supported: 2 (the running job's actor_rollout_ref.actor.ppo_epochs`],
    // A bridge that does not report clip_ratio_c runs verl's default dual-clip, 3: ppo without dualClip is refused.
    [{ ...settings, clipRatioC: undefined }, `cannot honour loss.dualClip "${NO_DUAL_CLIP}". Supported: 3 (the running job's actor_rollout_ref.actor.clip_ratio_c`],
    [{ ...settings, rolloutIs: "token", rolloutIsThreshold: 2 }, `cannot honour loss.tisCap "null". Supported: token (the running job's algorithm.rollout_correction.rollout_is`],
  ])("refuses a batch the running job's actor differs from, naming the key (%#)", (running, message) => {
    expect(() => assertMatchesActor("verl", options, running)).toThrow(message);
  });
});

describe("verl's other losses and TIS", () => {
  it("sends each loss's own options and the TIS threshold, and checks them against the job", () => {
    const clipCov = { ...options, loss: LossConfigSchema.parse({ kind: "clip_cov", clipLow: 0.2, clipHigh: 0.28, clipCov: { ratio: 0.01 }, tisCap: 1.5 }) };
    const overrides = actorOverrides(clipCov);
    expect(overrides).toEqual(
      expect.arrayContaining([
        "actor_rollout_ref.actor.policy_loss.loss_mode=clip_cov",
        "actor_rollout_ref.actor.policy_loss.clip_cov_ratio=0.01",
        "actor_rollout_ref.actor.policy_loss.clip_cov_lb=1",
        "actor_rollout_ref.actor.policy_loss.clip_cov_ub=5",
        "algorithm.rollout_correction.rollout_is=token",
        "algorithm.rollout_correction.rollout_is_threshold=1.5",
      ]),
    );
    expect(overrides.some((override) => override.includes("clip_ratio_c"))).toBe(false);
    const running = { ...settings, lossMode: "clip_cov", clipCovRatio: 0.01, clipCovLb: 1, clipCovUb: 5, rolloutIs: "token", rolloutIsThreshold: 1.5 };
    expect(() => assertMatchesActor("verl", clipCov, running)).not.toThrow();
    expect(() => assertMatchesActor("verl", clipCov, { ...running, clipCovRatio: 0.0002 })).toThrow(`cannot honour loss.clipCov.ratio "0.01". Supported: 0.0002`);
    expect(() => assertMatchesActor("verl", clipCov, { ...running, rolloutIsThreshold: 2 })).toThrow(`cannot honour loss.tisCap "1.5". Supported: 2`);
  });

  it("maps dual-clip ppo to vanilla with clip_ratio_c", () => {
    const dual = { ...options, loss: LossConfigSchema.parse({ kind: "ppo", clipLow: 0.2, clipHigh: 0.28, dualClip: 3 }) };
    expect(actorOverrides(dual)).toContain("actor_rollout_ref.actor.clip_ratio_c=3");
    expect(() => assertMatchesActor("verl", dual, { ...settings, clipRatioC: 3 })).not.toThrow();
  });
});
