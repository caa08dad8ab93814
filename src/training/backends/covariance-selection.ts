/**
 * The token choice of verl's Clip-Cov and KL-Cov losses (Cui et al. 2025, "The Entropy Mechanism of Reinforcement
 * Learning for Reasoning Language Models"; verl/trainer/ppo/core_algos.py compute_policy_loss_clip_cov/_kl_cov): each
 * trained token's covariance (A − mean A)·(p − mean p) over the batch's trained tokens, and a share of them chosen,
 * at random among candidates (Clip-Cov) or the largest (KL-Cov).
 */
import { shuffled, type Rng } from "../../core/random.js";

export interface CovarianceSelectionOptions {
  /** Share of trained tokens to choose; at least one is (verl: max(int(share · tokens), 1)). */
  share: number;
  /** Whether a token (its covariance and flat index) may be chosen. */
  isCandidate: (covariance: number, index: number) => boolean;
  /** "random": a seeded draw among the candidates (verl's torch.randperm); "largest": the largest covariances (torch.topk). */
  pick: "random" | "largest";
  random?: Rng;
}

/**
 * Which tokens are chosen, by flat index, from per-token advantages, learner logprobs and the 0/1 mask (all the
 * same length, row-major). Clip-Cov centres with verl's masked_mean (its 1e-8 in the denominator), KL-Cov with a
 * plain mean over the trained tokens, as each does in verl.
 */
export function covarianceSelection(
  advantages: ArrayLike<number>,
  logprobs: ArrayLike<number>,
  mask: ArrayLike<number>,
  options: CovarianceSelectionOptions,
): boolean[] {
  const trained: number[] = [];
  for (let index = 0; index < mask.length; index++) if (mask[index]! > 0) trained.push(index);
  const chosen = new Array<boolean>(mask.length).fill(false);
  if (trained.length === 0) return chosen;
  const epsilon = options.pick === "random" ? 1e-8 : 0;
  const meanOf = (values: ArrayLike<number>) => trained.reduce((sum, index) => sum + values[index]!, 0) / (trained.length + epsilon);
  const meanAdvantage = meanOf(advantages);
  const meanLogprob = meanOf(logprobs);
  const covariance = (index: number) => (advantages[index]! - meanAdvantage) * (logprobs[index]! - meanLogprob);
  const count = Math.max(1, Math.floor(options.share * trained.length));
  if (options.pick === "largest") {
    const ranked = trained.map((index) => ({ index, covariance: covariance(index) })).sort((first, second) => second.covariance - first.covariance || first.index - second.index);
    for (const { index } of ranked.slice(0, count)) chosen[index] = true;
    return chosen;
  }
  const candidates = trained.filter((index) => options.isCandidate(covariance(index), index));
  // Every candidate is chosen when there are no more than `count` of them, so the draw matters only beyond that.
  const drawn = candidates.length <= count ? candidates : shuffled(candidates, options.random ?? missingRandom).slice(0, count);
  for (const index of drawn) chosen[index] = true;
  return chosen;
}

function missingRandom(): number {
  throw new Error("covarianceSelection: more Clip-Cov candidates than it clips, and no seeded random generator to draw with");
}
