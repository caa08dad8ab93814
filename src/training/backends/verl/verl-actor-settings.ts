/**
 * How `rllm train` options map onto the verl actor's Hydra keys: one table gives both the overrides
 * `rllm verl launch --train-config` passes to the job and the check that a batch matches the job it is sent to.
 * verl fixes these when its workers start, so a batch cannot change them; a mismatch is refused, naming the key.
 */
import type { LossKind, TrainBatch } from "../../backend.js";
import { UnsupportedRequestError } from "../../errors/unsupported-request-error.js";
import type { TrainerSettings } from "./verl-bridge-protocol.js";

/** verl always clips the gradient norm; "no clipping" (no gradClipNorm) is a bound no real gradient reaches. */
export const NO_GRADIENT_CLIP = 1e9;

/** verl's vanilla loss always applies dual-clip; ppo without `dualClip` is a bound (clip_ratio_c) no loss reaches. */
export const NO_DUAL_CLIP = 1e9;

/** The project's loss names → verl's policy_loss.loss_mode (only the losses the verl backend lists). */
const LOSS_MODES: Partial<Record<LossKind, string>> = { ppo: "vanilla", gspo: "gspo", cispo: "cispo", clip_cov: "clip_cov", kl_cov: "kl_cov", geo_mean: "geo_mean", dro: "dro" };

/** The losses a verl actor computes for rllm-ts (integrations/verl/tests/test_policy_losses.py checks each against the project's). */
export const VERL_LOSSES = Object.keys(LOSS_MODES) as LossKind[];

/**
 * verl 0.9.1's defaults (workers/config/actor.py ActorConfig and PolicyLossConfig, trainer/config/algorithm/
 * rollout_correction.yaml) for settings a bridge from before they were reported does not send.
 */
const VERL_DEFAULTS: Partial<Record<keyof TrainerSettings, string | number | boolean>> = {
  clipRatioC: 3,
  clipCovRatio: 0.0002,
  clipCovLb: 1,
  clipCovUb: 5,
  klCovRatio: 0.0002,
  ppoKlCoef: 0.1,
  droBeta: "null",
  rolloutIs: "null",
  rolloutIsThreshold: 2,
};

/** The batch options the actor's settings are made from. */
export type ActorOptions = Pick<TrainBatch, "loss" | "lossAggregation" | "optimizer" | "substeps">;

interface SettingRow {
  setting: keyof TrainerSettings;
  /** The train.json key (dotted) the value comes from. */
  option: string;
  hydra: string;
  value: (options: ActorOptions) => string | number | boolean;
  /** False when the setting does not matter for these options (the KL coefficient with the KL loss off). */
  applies?: (options: ActorOptions) => boolean;
}

const ROWS: readonly SettingRow[] = [
  // The capabilities check lets only VERL_LOSSES through; verl calls PPO's clipped surrogate "vanilla".
  { setting: "lossMode", option: "loss.kind", hydra: "actor_rollout_ref.actor.policy_loss.loss_mode", value: (options) => LOSS_MODES[options.loss.kind] ?? options.loss.kind },
  {
    setting: "clipRatioC",
    option: "loss.dualClip",
    hydra: "actor_rollout_ref.actor.clip_ratio_c",
    value: (options) => options.loss.dualClip ?? NO_DUAL_CLIP,
    applies: (options) => options.loss.kind === "ppo",
  },
  ...lossOptionRows("clip_cov", [
    ["clipCovRatio", "loss.clipCov.ratio", "clip_cov_ratio", (loss) => loss.clipCov?.ratio ?? 0.0002],
    ["clipCovLb", "loss.clipCov.lower", "clip_cov_lb", (loss) => loss.clipCov?.lower ?? 1],
    ["clipCovUb", "loss.clipCov.upper", "clip_cov_ub", (loss) => loss.clipCov?.upper ?? 5],
  ]),
  ...lossOptionRows("kl_cov", [
    ["klCovRatio", "loss.klCov.ratio", "kl_cov_ratio", (loss) => loss.klCov?.ratio ?? 0.0002],
    ["ppoKlCoef", "loss.klCov.coef", "ppo_kl_coef", (loss) => loss.klCov?.coef ?? 0.1],
  ]),
  ...lossOptionRows("dro", [["droBeta", "loss.beta", "dro_beta", (loss) => loss.beta ?? 0.05]]),
  // TIS: the trainer weighs each token by min(exp(old − rollout), threshold) (rollout_corr_helper), off when null.
  { setting: "rolloutIs", option: "loss.tisCap", hydra: "algorithm.rollout_correction.rollout_is", value: (options) => (options.loss.tisCap === undefined ? "null" : (options.loss.tisLevel ?? "token")) },
  {
    setting: "rolloutIsThreshold",
    option: "loss.tisCap",
    hydra: "algorithm.rollout_correction.rollout_is_threshold",
    value: (options) => options.loss.tisCap!,
    applies: (options) => options.loss.tisCap !== undefined,
  },
  { setting: "clipRatioLow", option: "loss.clipLow", hydra: "actor_rollout_ref.actor.clip_ratio_low", value: (options) => options.loss.clipLow },
  { setting: "clipRatioHigh", option: "loss.clipHigh", hydra: "actor_rollout_ref.actor.clip_ratio_high", value: (options) => options.loss.clipHigh },
  { setting: "lossAggMode", option: "lossAggregation", hydra: "actor_rollout_ref.actor.loss_agg_mode", value: (options) => verlLossAggMode(options.lossAggregation) },
  // verl's use_kl_loss with low_var_kl is the k3 estimator the local backend's klCoef uses.
  { setting: "useKlLoss", option: "loss.klCoef", hydra: "actor_rollout_ref.actor.use_kl_loss", value: (options) => options.loss.klCoef > 0 },
  {
    setting: "klLossCoef",
    option: "loss.klCoef",
    hydra: "actor_rollout_ref.actor.kl_loss_coef",
    value: (options) => options.loss.klCoef,
    applies: (options) => options.loss.klCoef > 0,
  },
  { setting: "learningRate", option: "optimizer.learningRate", hydra: "actor_rollout_ref.actor.optim.lr", value: (options) => options.optimizer.learningRate },
  { setting: "weightDecay", option: "optimizer.weightDecay", hydra: "actor_rollout_ref.actor.optim.weight_decay", value: (options) => options.optimizer.weightDecay },
  {
    setting: "gradClip",
    option: "optimizer.gradClipNorm",
    hydra: "actor_rollout_ref.actor.grad_clip",
    value: (options) => options.optimizer.gradClipNorm ?? NO_GRADIENT_CLIP,
  },
  // One pass over each batch: substeps is fixed at 1 (the backend's capabilities), so ppo_epochs is 1.
  { setting: "ppoEpochs", option: "substeps", hydra: "actor_rollout_ref.actor.ppo_epochs", value: () => 1 },
];

/** Rows of one loss's own options under actor.policy_loss, checked only with that loss. */
function lossOptionRows(kind: LossKind, rows: [keyof TrainerSettings, string, string, (loss: ActorOptions["loss"]) => number][]): SettingRow[] {
  return rows.map(([setting, option, key, value]) => ({
    setting,
    option,
    hydra: `actor_rollout_ref.actor.policy_loss.${key}`,
    value: (options) => value(options.loss),
    applies: (options) => options.loss.kind === kind,
  }));
}

/** verl's name for a loss aggregation: the same names, except that verl calls the plain sum "token-sum". */
export function verlLossAggMode(aggregation: ActorOptions["lossAggregation"]): string {
  return aggregation === "sum" ? "token-sum" : aggregation;
}

/** The Hydra overrides (`key=value`) that make a verl job's actor match `options`. */
export function actorOverrides(options: ActorOptions): string[] {
  const overrides = ROWS.filter((row) => row.applies?.(options) ?? true).map((row) => `${row.hydra}=${String(row.value(options))}`);
  // The KL term needs the reference policy's logprobs; low_var_kl is the k3 estimator.
  if (options.loss.klCoef > 0) overrides.push("actor_rollout_ref.actor.kl_loss_type=low_var_kl");
  return overrides;
}

/** Throws UnsupportedRequestError naming the first option where `options` differ from the running job's actor. */
export function assertMatchesActor(backend: string, options: ActorOptions, settings: TrainerSettings): void {
  for (const row of ROWS) {
    if (!(row.applies?.(options) ?? true)) continue;
    const wanted = row.value(options);
    // A setting the bridge did not report is verl's default; a null one is Hydra's null.
    const running = settings[row.setting] === undefined ? VERL_DEFAULTS[row.setting] : (settings[row.setting] ?? "null");
    const same = typeof wanted === "number" && typeof running === "number" ? Math.abs(wanted - running) <= 1e-12 * Math.max(1, Math.abs(wanted)) : wanted === running;
    if (!same) {
      throw new UnsupportedRequestError(backend, row.option, String(wanted), [
        `${String(running)} (the running job's ${row.hydra}; relaunch with rllm verl launch --train-config to change it)`,
      ]);
    }
  }
}
