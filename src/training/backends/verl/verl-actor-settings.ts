/**
 * How `rllm train` options map onto the verl actor's Hydra keys: one table gives both the overrides
 * `rllm verl launch --train-config` passes to the job and the check that a batch matches the job it is sent to.
 * verl fixes these when its workers start, so a batch cannot change them; a mismatch is refused, naming the key.
 */
import type { TrainBatch } from "../../backend.js";
import { UnsupportedRequestError } from "../../errors/unsupported-request-error.js";
import type { TrainerSettings } from "./verl-bridge-protocol.js";

/** verl always clips the gradient norm; "no clipping" (no gradClipNorm) is a bound no real gradient reaches. */
export const NO_GRADIENT_CLIP = 1e9;

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
  // Only loss "ppo" passes the capabilities check; verl calls PPO's clipped surrogate "vanilla".
  { setting: "lossMode", option: "loss.kind", hydra: "actor_rollout_ref.actor.policy_loss.loss_mode", value: () => "vanilla" },
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
    const running = settings[row.setting];
    const same = typeof wanted === "number" && typeof running === "number" ? Math.abs(wanted - running) <= 1e-12 * Math.max(1, Math.abs(wanted)) : wanted === running;
    if (!same) {
      throw new UnsupportedRequestError(backend, row.option, String(wanted), [
        `${String(running)} (the running job's ${row.hydra}; relaunch with rllm verl launch --train-config to change it)`,
      ]);
    }
  }
}
