/** REINFORCE and REINFORCE++: baselines taken over the whole batch of a role rather than per group. */
import { mean, populationStd, STD_EPSILON } from "./group-statistics.js";

/** REINFORCE with a batch-mean baseline: r − mean of every reward of the role in this batch. */
export function reinforceAdvantages(groups: readonly (readonly number[])[]): number[][] {
  const centre = mean(groups.flat());
  return groups.map((rewards) => rewards.map((reward) => reward - centre));
}

/** REINFORCE++: batch whitening, (r − batch mean) / (batch population std + 1e-6), over the role's batch. */
export function reinforcePlusPlusAdvantages(groups: readonly (readonly number[])[]): number[][] {
  const all = groups.flat();
  const centre = mean(all);
  const scale = populationStd(all) + STD_EPSILON;
  return groups.map((rewards) => rewards.map((reward) => (reward - centre) / scale));
}
