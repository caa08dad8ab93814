/** RLOO: each reward against the mean of the other rollouts of the same prompt. */
import { mean } from "./group-statistics.js";

/** RLOO: r − mean of the others = (r − group mean)·n/(n − 1); a group of one keeps its reward. */
export function rlooAdvantages(rewards: readonly number[]): number[] {
  const count = rewards.length;
  if (count <= 1) return [...rewards];
  const centre = mean(rewards);
  return rewards.map((reward) => ((reward - centre) * count) / (count - 1));
}
