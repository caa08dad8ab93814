/**
 * Truncated importance sampling (TIS) between the trainer and the sampler: per trained token, the ratio of the
 * trainer's recomputed probability to the sampler's recorded one, capped, as verl 0.9.1's
 * compute_rollout_correction_weights (verl/trainer/ppo/rollout_corr_helper.py; Yao et al., "Your efficient RL framework
 * secretly brings you off-policy RL training") computes it, plus the ratio's mean, max and clipped share for the step's
 * metrics. Pure: logprob arrays in, weights and figures out.
 */

/** verl's SAFETY_BOUND: log-ratios are clamped to ±20 before exp. */
const LOG_RATIO_BOUND = 20;

export interface ImportanceWeights {
  /** Per row, per token (aligned with the tokens; entry 0 and untrained tokens 0): min(ratio, cap). */
  weights: number[][];
  /** The untruncated ratio's mean and largest value over trained tokens (over sequences with level "sequence"). */
  ratioMean: number;
  ratioMax: number;
  /** Share of trained tokens (sequences) whose ratio was above the cap, so their weight was cut to it. */
  clippedShare: number;
}

/**
 * The weights for rows whose trainer logprobs are `trainer` and sampler logprobs `sampler` (each aligned with the
 * row's tokens, entry 0 never predicted), trained where `masks` is 1. "token": each token's own ratio; "sequence":
 * the product of the row's token ratios, on each of its tokens.
 */
export function importanceWeights(
  trainer: readonly (readonly number[])[],
  sampler: readonly (readonly number[])[],
  masks: readonly (readonly number[])[],
  cap: number,
  level: "token" | "sequence",
): ImportanceWeights {
  let ratioSum = 0;
  let ratioMax = 0;
  let clipped = 0;
  let counted = 0;
  const weights = masks.map((mask, row) => {
    const logRatio = (token: number) => trainer[row]![token]! - sampler[row]![token]!;
    const rowWeights = mask.map(() => 0);
    if (level === "sequence") {
      let sum = 0;
      let trained = false;
      for (let token = 1; token < mask.length; token++) {
        if (mask[token]! > 0) {
          sum += logRatio(token);
          trained = true;
        }
      }
      if (!trained) return rowWeights;
      const ratio = Math.exp(clampLogRatio(sum));
      for (let token = 1; token < mask.length; token++) if (mask[token]! > 0) rowWeights[token] = Math.min(ratio, cap);
      ratioSum += ratio;
      ratioMax = Math.max(ratioMax, ratio);
      clipped += ratio > cap ? 1 : 0;
      counted += 1;
      return rowWeights;
    }
    for (let token = 1; token < mask.length; token++) {
      if (mask[token]! <= 0) continue;
      const ratio = Math.exp(clampLogRatio(logRatio(token)));
      rowWeights[token] = Math.min(ratio, cap);
      ratioSum += ratio;
      ratioMax = Math.max(ratioMax, ratio);
      clipped += ratio > cap ? 1 : 0;
      counted += 1;
    }
    return rowWeights;
  });
  return { weights, ratioMean: counted === 0 ? 0 : ratioSum / counted, ratioMax, clippedShare: counted === 0 ? 0 : clipped / counted };
}

function clampLogRatio(value: number): number {
  return Math.min(LOG_RATIO_BOUND, Math.max(-LOG_RATIO_BOUND, value));
}
