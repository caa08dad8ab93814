/**
 * Tinker sums every loss over tokens; the trainer's token-mean and seq-mean-token-mean become per-sequence scales the
 * client folds into what it sends. Each loss is c·(per-token term) for a positive scale c once A (and, for DRO, β) is
 * multiplied by c: importance_sampling −r·cA, cispo −sg(clip r)·p·cA, ppo −min(r·cA, clip(r)·cA) = −c·min(r·A, clip(r)·A)
 * (c > 0), cross_entropy −(c·w)·log p, dro −(p·cA − ½·(cβ)·(p − q)²). So
 * - sum: c = 1;
 * - token-mean: c = 1 / (trained tokens in the step), the same for every row;
 * - seq-mean-token-mean: c_i = 1 / (trained tokens of row i × rows with trained tokens);
 * - seq-mean-token-sum: c = 1 / (rows with trained tokens); -norm also divides by the widest row's predicted positions
 *   (the padded width verl's agg_loss divides by).
 * DRO's β is one number per request, so DRO takes only a c shared by all rows (sum or token-mean).
 */
import type { BatchSequence, LossAggregation, LossConfig } from "../../backend.js";
import { UnsupportedRequestError } from "../../errors/unsupported-request-error.js";
import type { DatumInput } from "../../../llm/tinker/tinker-proto.js";

/** Each sequence's scale c for `aggregation` (token 0 is never predicted, so its mask entry never counts). */
export function aggregationScales(sequences: readonly Pick<BatchSequence, "lossMask">[], aggregation: LossAggregation): number[] {
  const trained = sequences.map((sequence) => sequence.lossMask.slice(1).reduce((sum, weight) => sum + weight, 0));
  if (aggregation === "sum") return trained.map(() => 1);
  if (aggregation === "token-mean") {
    const total = trained.reduce((sum, count) => sum + count, 0);
    return trained.map(() => 1 / Math.max(1, total));
  }
  const rows = trained.filter((count) => count > 0).length;
  if (aggregation === "seq-mean-token-mean") return trained.map((count) => (count > 0 ? 1 / (count * rows) : 0));
  const width = aggregation === "seq-mean-token-sum-norm" ? Math.max(1, ...sequences.map((sequence) => sequence.lossMask.length - 1)) : 1;
  return trained.map((count) => (count > 0 ? 1 / (rows * width) : 0));
}

/** The loss_fn_config Tinker reads: ratio clip bounds for ppo/cispo, β (times the shared scale) for dro. */
export function lossFnConfig(loss: LossConfig, scales: readonly number[]): Record<string, number> {
  if (loss.kind === "ppo" || loss.kind === "cispo") return { clip_low_threshold: 1 - loss.clipLow, clip_high_threshold: 1 + loss.clipHigh };
  if (loss.kind !== "dro") return {};
  const shared = scales[0] ?? 1;
  if (scales.some((scale) => Math.abs(scale - shared) > 1e-12 * Math.max(1, shared))) {
    throw new UnsupportedRequestError("tinker", "lossAggregation with loss dro", "seq-mean-token-mean", ["sum", "token-mean"]);
  }
  return { beta: (loss.beta ?? 0.05) * shared };
}

/**
 * One Datum from a flat sequence: input = tokens[:-1], targets = tokens[1:], and per target the sampler logprob and
 * the advantage (mask × A × scale); cross_entropy sends weights (mask × scale) instead.
 */
export function sequenceDatum(sequence: BatchSequence, loss: LossConfig, scale: number): DatumInput {
  const targets = sequence.tokens.slice(1);
  const mask = sequence.lossMask.slice(1);
  const lossFnInputs: DatumInput["lossFnInputs"] = { target_tokens: { dtype: "int64", values: targets } };
  if (loss.kind === "cross_entropy") {
    lossFnInputs.weights = { dtype: "float32", values: mask.map((weight) => weight * scale) };
  } else {
    lossFnInputs.logprobs = { dtype: "float32", values: sequence.samplerLogprobs.slice(1) };
    lossFnInputs.advantages = { dtype: "float32", values: mask.map((weight) => weight * sequence.advantage * scale) };
  }
  return { modelInput: sequence.tokens.slice(0, -1), lossFnInputs };
}
