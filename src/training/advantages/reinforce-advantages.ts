/** REINFORCE and REINFORCE++: baselines taken over the whole batch of a role rather than per group. */
import type { AdvantageConvention } from "./advantage-convention.js";
import { groupBaseline } from "./grpo-advantages.js";
import { mean, populationStd, STD_EPSILON } from "./group-statistics.js";

/** REINFORCE with a batch-mean baseline: r − mean of every reward of the role in this batch. */
export function reinforceAdvantages(groups: readonly (readonly number[])[]): number[][] {
  const centre = mean(groups.flat());
  return groups.map((rewards) => rewards.map((reward) => reward - centre));
}

/**
 * REINFORCE++: the rewards whitened over the role's batch. `tokenCounts` (same shape as `groups`) are the trained
 * tokens of each trajectory; absent, each trajectory counts once. See `whiten` for the two conventions.
 */
export function reinforcePlusPlusAdvantages(
  groups: readonly (readonly number[])[],
  tokenCounts?: readonly (readonly number[])[],
  convention: AdvantageConvention = "verl",
): number[][] {
  return whiten(groups, tokenCounts, convention);
}

/**
 * REINFORCE++ with a group baseline (verl's reinforce_plus_plus_baseline): r − group mean (a group of one: as GRPO's),
 * then whitened over the batch like REINFORCE++.
 */
export function reinforcePlusPlusBaselineAdvantages(
  groups: readonly (readonly number[])[],
  tokenCounts?: readonly (readonly number[])[],
  convention: AdvantageConvention = "verl",
): number[][] {
  const centred = groups.map((rewards) => {
    const { centre } = groupBaseline(rewards, convention);
    return rewards.map((reward) => reward - centre);
  });
  return whiten(centred, tokenCounts, convention);
}

// verl (verl_F.masked_whiten on rewards broadcast over the response mask): every trained token is one sample, so a
// trajectory weighs its token count; masked means divide by N + 1e-8 (N tokens), the variance is × N/(N − 1), and
// (v − mean)/sqrt(var + 1e-8). The 1e-8 matter when every reward is equal: verl then gives ~1e-5, not exactly 0;
// a trajectory with no trained token gets 0 (verl multiplies by the mask), and fewer than two tokens give zeros where
// verl raises. population: one sample per trajectory, (v − mean) / (population std + 1e-6).
// verl_F.masked_mean's guard against an empty mask, kept so that all-equal rewards agree with verl to 1e-6.
const MASKED_MEAN_EPSILON = 1e-8;

function whiten(
  groups: readonly (readonly number[])[],
  tokenCounts: readonly (readonly number[])[] | undefined,
  convention: AdvantageConvention,
): number[][] {
  if (convention === "population") {
    const all = groups.flat();
    const centre = mean(all);
    const scale = populationStd(all) + STD_EPSILON;
    return groups.map((values) => values.map((value) => (value - centre) / scale));
  }
  const weights = groups.map((values, groupIndex) => values.map((_, index) => tokenCounts?.[groupIndex]?.[index] ?? 1));
  const samples = groups.flatMap((values, groupIndex) => values.map((value, index) => ({ value, weight: weights[groupIndex]![index]! })));
  let tokens = 0;
  let weightedSum = 0;
  for (const { value, weight } of samples) {
    tokens += weight;
    weightedSum += weight * value;
  }
  if (tokens < 2) return groups.map((values) => values.map(() => 0));
  const centre = weightedSum / (tokens + MASKED_MEAN_EPSILON);
  let squares = 0;
  for (const { value, weight } of samples) squares += weight * (value - centre) ** 2;
  const variance = (squares / (tokens + MASKED_MEAN_EPSILON)) * (tokens / (tokens - 1));
  const scale = Math.sqrt(variance + 1e-8);
  return groups.map((values, groupIndex) =>
    values.map((value, index) => (weights[groupIndex]![index]! > 0 ? (value - centre) / scale : 0)),
  );
}
