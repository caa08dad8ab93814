/**
 * The TrainingBackend contract: token-level batches in, policy versions out. Shaped after Tinker's futures and
 * verl's bridge (backends.md §4) so remote backends fit; every backend states its capabilities and refuses,
 * with an UnsupportedRequestError, any request outside them instead of silently ignoring it.
 */
import { z } from "zod";
import type { MergeMode } from "./transforms/index.js";
import { UnsupportedRequestError } from "./errors/unsupported-request-error.js";

/**
 * The policy losses. Tinker's five (`importance_sampling`, `ppo`, `cispo`, `dro`, `cross_entropy`: each a sum over trained
 * tokens of a function of p (learner), q (sampler) and A) and verl 0.9.1's other core_algos losses: `gspo` (a
 * sequence-level ratio), `clip_cov` and `kl_cov` (the covariance-selected clip and KL), `geo_mean` (GMPO). `ppo` is
 * verl's "vanilla" clipped surrogate; with `dualClip` it is verl's dual-clip. src/training/backends/policy-loss.ts.
 */
export const LossKindSchema = z.enum(["importance_sampling", "ppo", "cispo", "dro", "cross_entropy", "gspo", "clip_cov", "kl_cov", "geo_mean"]);
export type LossKind = z.infer<typeof LossKindSchema>;

/** The loss functions Tinker's API names (`forward_backward`'s loss_fn); the others exist only in verl's core_algos. */
export const TINKER_LOSS_FUNCTIONS: readonly LossKind[] = ["importance_sampling", "ppo", "cispo", "dro", "cross_entropy"];

export const LossConfigSchema = z
  .object({
    kind: LossKindSchema.default("importance_sampling"),
    /** Ratio clip range for ppo/cispo/gspo/clip_cov/geo_mean: [1 − clipLow, 1 + clipHigh] (0.2/0.2 as Tinker; 0.2/0.28 is DAPO clip-higher). */
    clipLow: z.number().positive().default(0.2),
    clipHigh: z.number().positive().default(0.2),
    /**
     * ppo only: dual-clip (Ye et al. 2020, arXiv 1912.09729; verl's clip_ratio_c): a negative-advantage token's loss is
     * at most −A·c, so a ratio far above 1 cannot push it down without bound. Absent = off (Tinker's ppo). verl's
     * default is 3.
     */
    dualClip: z.number().gt(1).optional(),
    /** DRO's quadratic penalty weight. */
    beta: z.number().nonnegative().optional(),
    /**
     * clip_cov only (verl's policy_loss.clip_cov_*): the share of trained tokens (at least one) whose policy-gradient
     * term is dropped, chosen among those whose covariance of advantage and logprob lies in (lower, upper).
     */
    clipCov: z
      .object({ ratio: z.number().positive().max(1).default(0.0002), lower: z.number().default(1), upper: z.number().default(5) })
      .strict()
      .optional(),
    /** kl_cov only (verl's kl_cov_ratio, ppo_kl_coef): the share of tokens with the largest covariance that get coef·|p − q| added. */
    klCov: z.object({ ratio: z.number().positive().max(1).default(0.0002), coef: z.number().nonnegative().default(0.1) }).strict().optional(),
    /**
     * Weight of a per-token KL penalty to the reference policy (the weights training started from), added to the loss
     * with the same aggregation: verl's use_kl_loss with kl_loss_type low_var_kl (the k3 estimator). 0 = off.
     */
    klCoef: z.number().nonnegative().default(0),
    /**
     * Keep the policy-gradient term only on "forking" tokens: positions where the policy's next-token entropy (nats,
     * before the update) is at least this. Low-entropy tokens (copying, settled arithmetic) then add no gradient noise
     * (Wang et al. 2025, "Beyond the 80/20 rule"). The loss's denominator still counts every trained token. 0 = off.
     */
    minEntropy: z.number().nonnegative().default(0),
    /**
     * Truncated importance sampling between the trainer and the sampler (verl's rollout_correction with rollout_is
     * and rollout_is_threshold; rLLM's tis_cap): the trainer recomputes each token's logprob before the update
     * (the proximal policy, which the ratio of ppo-like losses is then taken against), and each token's loss is
     * weighted by min(exp(proximal − sampler), cap), held constant. Absent = off: the sampler's logprobs are the
     * ratio's denominator (verl's bypass mode).
     */
    tisCap: z.number().gt(0).optional(),
    /** With tisCap: one weight per token, or the whole sequence's product of ratios (verl's rollout_is); absent = "token". */
    tisLevel: z.enum(["token", "sequence"]).optional(),
  })
  .strict();
export type LossConfig = z.infer<typeof LossConfigSchema>;

/**
 * How per-token losses become one number, as verl's agg_loss (core_algos): `sum` (verl's token-sum, Tinker's own),
 * `token-mean`, `seq-mean-token-mean`, `seq-mean-token-sum` (each sequence's token sum, averaged over sequences) and
 * `seq-mean-token-sum-norm` (that divided by the batch's mask width, verl's default horizon: Dr.GRPO's constant).
 */
export const LossAggregationSchema = z.enum(["sum", "token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"]);
export type LossAggregation = z.infer<typeof LossAggregationSchema>;

export const OptimizerConfigSchema = z
  .object({
    learningRate: z.number().positive(),
    beta1: z.number().min(0).max(1).default(0.9),
    beta2: z.number().min(0).max(1).default(0.999),
    epsilon: z.number().positive().default(1e-8),
    weightDecay: z.number().nonnegative().default(0),
    /** Clip the global gradient norm to this value; absent = no clipping. */
    gradClipNorm: z.number().positive().optional(),
  })
  .strict();
export type OptimizerConfig = z.infer<typeof OptimizerConfigSchema>;

/** What a backend can do; the trainer checks every request against it before sending. */
export interface BackendCapabilities {
  name: string;
  losses: readonly LossKind[];
  lossAggregations: readonly LossAggregation[];
  merges: readonly MergeMode[];
  /** Token-level sampling through `sample`, an OpenAI-compatible URL on the policy, or none. */
  sampling: "native" | "openai" | "none";
  fullFineTune: boolean;
  lora: boolean;
  /** Longest sequence (prompt + completion) in tokens a batch row may have. */
  maxContext: number;
  checkpoints: boolean;
  /** Can add a KL penalty to the reference policy to the loss (`loss.klCoef`). */
  referenceKl: boolean;
  /** Can restrict the policy-gradient term to high-entropy tokens (`loss.minEntropy`). */
  entropySelection: boolean;
  /** Batch options (dotted paths, e.g. "substeps") the backend honours only at the value given. */
  fixedOptions?: Readonly<Record<string, number>>;
  /** Can bound a negative-advantage token's ppo loss (`loss.dualClip`); absent = no. */
  dualClip?: boolean;
  /** Can recompute the trainer's logprobs and weight tokens by truncated importance ratios (`loss.tisCap`); absent = no. */
  truncatedImportanceSampling?: boolean;
  /**
   * Sampling while an update runs (`rllm train --async`), and how: "pinned" serves several policy versions at once (the
   * model name pinned to a version, pinnedModelName, is sampled by that version) so an episode keeps the version it
   * started on, or takes the newest for each call with --partial-rollouts; "newest" holds one version (verl's servers
   * are synced in place), so only --partial-rollouts is honest. Every reply says which version sampled it
   * (`weight_version`). Absent = no async rollouts.
   */
  asyncRollouts?: "pinned" | "newest";
}

/** A version of the policy weights; every sample records the version that produced it. */
export interface PolicyRef {
  backend: string;
  modelId: string;
  version: number;
  /** Where agents reach this version over the OpenAI protocol, when the backend serves it. */
  openaiBaseUrl?: string;
  /** A backend-specific sampler handle (e.g. a tinker:// path). */
  samplerPath?: string;
}

export interface OpenRequest {
  baseModel: string;
  seed?: number;
  loraRank?: number;
}

export interface SampleRequest {
  policy: PolicyRef;
  promptTokenIds: number[];
  n: number;
  maxTokens: number;
  temperature: number;
  topP?: number;
  stopTokenIds?: number[];
  seed?: number;
}

export interface SampledCompletion {
  tokenIds: number[];
  logprobs: number[];
  stopReason: "stop" | "length";
}

export interface SampleResult {
  completions: SampledCompletion[];
  policyVersion: number;
}

/** One row to train on: the flat sequence, its loss mask, sampler logprobs (q) and advantage, all per token. */
export interface BatchSequence {
  tokens: number[];
  lossMask: number[];
  samplerLogprobs: number[];
  /** Scalar advantage broadcast over the trained tokens. */
  advantage: number;
  /** Policy version that sampled it, when known (for off-policy limits). */
  policyVersion?: number;
  /** Length of the first prompt: tokens before it are context (backends that split prompt and response use it). */
  promptLength?: number;
  /** Group the row's advantage was computed in (`<taskId>:<role>`; verl's uid). */
  groupKey?: string;
  /** The trajectory's role, e.g. "solver" or "judge". */
  role?: string;
  /** The trajectory's scalar reward. */
  reward?: number;
}

export interface TrainBatch {
  sequences: BatchSequence[];
  loss: LossConfig;
  lossAggregation: LossAggregation;
  merge: MergeMode;
  optimizer: OptimizerConfig;
  /** Optimizer steps the batch is split into (Tinker num_substeps, verl mini-batches). */
  substeps: number;
}

export type StepState = "queued" | "running" | "done" | "failed";

export interface StepStatus {
  state: StepState;
  /** loss, learner-vs-sampler logprob mismatch, clip fraction, dropped rows... */
  metrics: Record<string, number>;
  error?: string;
  /** The backend's class of a failure, when it gives one (Tinker: unknown, server or user). */
  errorCategory?: string;
}

/** A training backend. Long-running ones return from `submit` at once and report through `status`. */
export interface TrainingBackend {
  readonly name: string;
  capabilities(): BackendCapabilities;
  open(request: OpenRequest): Promise<PolicyRef>;
  sample(request: SampleRequest): Promise<SampleResult>;
  submit(batch: TrainBatch): Promise<{ stepId: string }>;
  /**
   * The batch's loss without an update (Tinker's forward): SFT's validation loss. Only `cross_entropy`; the mean
   * over trained tokens, and how many there were. Absent on a backend that cannot compute it.
   */
  forward?(batch: TrainBatch): Promise<{ loss: number; tokens: number }>;
  status(stepId: string): Promise<StepStatus>;
  /** Makes the trained weights the sampling policy, as a new version. */
  publish(): Promise<PolicyRef>;
  /**
   * Saves weights and optimizer state under `directory`; returns the path `restore` takes and, on a remote backend
   * (Tinker), the service's paths of the train state and of sampler weights a sampling client can open.
   */
  checkpoint(directory: string): Promise<{ path: string; statePath?: string; samplerPath?: string }>;
  /**
   * Async rollouts ("pinned"): the policy versions whose samplers must stay open (episodes pinned to them are still
   * running); the others may be released. The newest version always stays.
   */
  retainVersions?(versions: readonly number[]): Promise<void>;
  restore(path: string): Promise<PolicyRef>;
  close(): Promise<void>;
}

/** Throws UnsupportedRequestError when `batch` asks for something outside `capabilities`, or a row is too long. */
export function assertBatchSupported(capabilities: BackendCapabilities, batch: TrainBatch): void {
  const { name } = capabilities;
  if (!capabilities.losses.includes(batch.loss.kind)) {
    throw new UnsupportedRequestError(name, "loss", batch.loss.kind, capabilities.losses);
  }
  if (!capabilities.lossAggregations.includes(batch.lossAggregation)) {
    throw new UnsupportedRequestError(name, "lossAggregation", batch.lossAggregation, capabilities.lossAggregations);
  }
  if (!capabilities.merges.includes(batch.merge)) {
    throw new UnsupportedRequestError(name, "merge", batch.merge, capabilities.merges);
  }
  if (batch.loss.beta !== undefined && batch.loss.kind !== "dro") {
    throw new UnsupportedRequestError(name, `option "beta" with loss`, batch.loss.kind, ["dro"]);
  }
  // Each loss's own options, given with another loss, would be ignored: refused instead.
  const ownOptions = [["dualClip", "ppo"], ["clipCov", "clip_cov"], ["klCov", "kl_cov"]] as const;
  for (const [option, kind] of ownOptions) {
    if (batch.loss[option] !== undefined && batch.loss.kind !== kind) throw new UnsupportedRequestError(name, `option "${option}" with loss`, batch.loss.kind, [kind]);
  }
  if (batch.loss.dualClip !== undefined && !capabilities.dualClip) {
    throw new UnsupportedRequestError(name, "loss.dualClip", String(batch.loss.dualClip), ["none (ppo without dual-clip)"]);
  }
  // GMPO averages each sequence's tokens inside its geometric mean, then the sequences (verl ignores loss_agg_mode).
  if (batch.loss.kind === "geo_mean" && batch.lossAggregation !== "seq-mean-token-mean") {
    throw new UnsupportedRequestError(name, "lossAggregation with loss geo_mean", batch.lossAggregation, ["seq-mean-token-mean"]);
  }
  if (batch.loss.tisCap !== undefined && !capabilities.truncatedImportanceSampling) {
    throw new UnsupportedRequestError(name, "loss.tisCap", String(batch.loss.tisCap), ["none (the sampler's logprobs are the ratio's denominator)"]);
  }
  if (batch.loss.tisLevel !== undefined && batch.loss.tisCap === undefined) {
    throw new UnsupportedRequestError(name, "loss.tisLevel without loss.tisCap", batch.loss.tisLevel, ["a tisCap to weight by"]);
  }
  if (batch.loss.tisCap !== undefined && batch.loss.kind === "cross_entropy") {
    throw new UnsupportedRequestError(name, "loss.tisCap with loss", batch.loss.kind, ["a policy-gradient loss"]);
  }
  if (batch.loss.klCoef > 0 && !capabilities.referenceKl) {
    throw new UnsupportedRequestError(name, "loss.klCoef", String(batch.loss.klCoef), ["0 (no KL penalty to a reference policy)"]);
  }
  if (batch.loss.minEntropy > 0 && !capabilities.entropySelection) {
    throw new UnsupportedRequestError(name, "loss.minEntropy", String(batch.loss.minEntropy), ["0 (every trained token)"]);
  }
  for (const [option, value] of Object.entries(capabilities.fixedOptions ?? {})) {
    const requested = option.split(".").reduce<unknown>((object, key) => (object as Record<string, unknown> | undefined)?.[key], batch);
    if (requested !== value) throw new UnsupportedRequestError(name, option, String(requested), [String(value)]);
  }
  const tooLong = batch.sequences.find((sequence) => sequence.tokens.length > capabilities.maxContext);
  if (tooLong) {
    throw new UnsupportedRequestError(name, "sequence length", String(tooLong.tokens.length), [
      `at most ${capabilities.maxContext} tokens`,
    ]);
  }
}
