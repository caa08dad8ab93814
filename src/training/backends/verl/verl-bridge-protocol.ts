/**
 * The bridge protocol between rllm-ts (which owns the loop) and the verl trainer inside the Ray job: the trainer
 * registers, long-polls for work (a batch to train on, a checkpoint to save or load, stop) and posts each result.
 * Every body is validated here, on the TypeScript side; integrations/verl/rllm_verl/bridge_client.py speaks it.
 */
import { z } from "zod";

/** Where the bridge routes live. */
export const BRIDGE_PREFIX = "/bridge/v1";

/** The actor settings a verl job was launched with; a batch asking for others is refused, naming the key. */
export const TrainerSettingsSchema = z.object({
  /** actor_rollout_ref.actor.policy_loss.loss_mode */
  lossMode: z.string(),
  clipRatioLow: z.number(),
  clipRatioHigh: z.number(),
  lossAggMode: z.string(),
  useKlLoss: z.boolean(),
  klLossCoef: z.number(),
  learningRate: z.number(),
  weightDecay: z.number(),
  gradClip: z.number(),
  ppoEpochs: z.number().int(),
  // Reported by bridges since the verl losses beyond vanilla and TIS: absent means verl's defaults (VERL_DEFAULTS).
  /** actor.clip_ratio_c: vanilla's dual-clip bound. */
  clipRatioC: z.number().optional(),
  /** actor.policy_loss.clip_cov_ratio, clip_cov_lb, clip_cov_ub, kl_cov_ratio, ppo_kl_coef, dro_beta. */
  clipCovRatio: z.number().optional(),
  clipCovLb: z.number().optional(),
  clipCovUb: z.number().optional(),
  klCovRatio: z.number().optional(),
  ppoKlCoef: z.number().optional(),
  droBeta: z.number().nullish(),
  /** algorithm.rollout_correction.rollout_is ("token", "sequence" or null: off) and rollout_is_threshold. */
  rolloutIs: z.string().nullish(),
  rolloutIsThreshold: z.union([z.number(), z.string()]).optional(),
});
export type TrainerSettings = z.infer<typeof TrainerSettingsSchema>;

/** `POST /bridge/v1/register`: a trainer process (a new one after every preemption) says where its rollout servers are. */
export const RegisterRequestSchema = z.object({
  /** Unique per trainer process, so a restarted job is told apart from the one it replaces. */
  instanceId: z.string().min(1),
  /** The model name the rollout servers answer to (verl serves the model path). */
  servedModel: z.string().min(1),
  /** "host:port" of each vLLM/SGLang OpenAI server (verl's `server_addresses`). */
  serverAddresses: z.array(z.string().min(1)).min(1),
  maxPromptLength: z.number().int().positive(),
  maxResponseLength: z.number().int().positive(),
  /** verl's global step after loading its latest checkpoint (0 on a fresh start). */
  globalStep: z.number().int().nonnegative(),
  settings: TrainerSettingsSchema,
  verlVersion: z.string().optional(),
  /** The submission id of the Ray job the trainer runs in (absent outside a Ray job). */
  rayJobId: z.string().optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** One train row: the flat sequence split at `promptLength`, with its mask, sampler logprobs, advantage and group. */
export const BridgeRowSchema = z.object({
  tokens: z.array(z.number().int()),
  lossMask: z.array(z.union([z.literal(0), z.literal(1)])),
  samplerLogprobs: z.array(z.number()),
  promptLength: z.number().int().positive(),
  advantage: z.number(),
  reward: z.number(),
  /** verl's uid: GRPO/RLOO-style statistics and rollout correction group by it. */
  groupKey: z.string(),
  role: z.string(),
});
export type BridgeRow = z.infer<typeof BridgeRowSchema>;

/** What `GET /bridge/v1/work` hands out: one item per call, or 204 when none came within the wait. */
export const WorkItemSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("train"), id: z.string(), policyVersion: z.number().int(), rows: z.array(BridgeRowSchema) }),
  z.object({ kind: z.literal("checkpoint"), id: z.string() }),
  z.object({ kind: z.literal("restore"), id: z.string(), path: z.string() }),
  z.object({ kind: z.literal("stop"), id: z.string() }),
]);
export type WorkItem = z.infer<typeof WorkItemSchema>;

/** `POST /bridge/v1/results/<id>`: how a work item ended. */
export const WorkResultSchema = z.object({
  instanceId: z.string().min(1),
  state: z.enum(["done", "failed"]),
  /** verl's global step after the item (an update adds one). */
  globalStep: z.number().int().nonnegative(),
  /** Train: at least `loss` and `logprobMismatchMean`, plus verl's own metric names. */
  metrics: z.record(z.string(), z.number()).default({}),
  /** Checkpoint: where verl saved it (`<trainer.default_local_dir>/global_step_<n>`). */
  checkpointPath: z.string().optional(),
  error: z.string().optional(),
});
export type WorkResult = z.infer<typeof WorkResultSchema>;

/** The metrics every train result must carry, so `rllm train` can print its progress line. */
export const TrainMetricsSchema = z.looseObject({ loss: z.number(), logprobMismatchMean: z.number() });
