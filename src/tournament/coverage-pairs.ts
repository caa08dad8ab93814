/** V1 phase 1 (Alg. 2, CoveragePairs): one round of disjoint pairs that gives under-covered candidates new opponents. */
import type { WinRateStats } from "./win-rate-stats.js";
import { winRate } from "./win-rate-stats.js";

/**
 * Pairs every candidate with fewer than `minDegree` distinct opponents (fewest first) with the unmet, unused
 * candidate nearest in μ. `order` is a random permutation that breaks ties, so round 1 (all μ = 0.5) is a random
 * matching as the paper describes. The under-covered candidate is returned first (it takes slot A).
 */
export function coveragePairs(
  stats: WinRateStats,
  minDegree: number,
  order: readonly number[],
): Array<[number, number]> {
  const rank = new Map(order.map((candidate, position) => [candidate, position]));
  const undercovered = order
    .filter((candidate) => stats.opponents[candidate]!.size < minDegree)
    .sort((first, second) => stats.opponents[first]!.size - stats.opponents[second]!.size || rank.get(first)! - rank.get(second)!);
  const used = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const candidate of undercovered) {
    if (used.has(candidate)) continue;
    const mu = winRate(stats, candidate);
    let best = -1;
    let bestGap = Infinity;
    for (const opponent of order) {
      if (opponent === candidate || used.has(opponent) || stats.opponents[candidate]!.has(opponent)) continue;
      const gap = Math.abs(mu - winRate(stats, opponent));
      if (gap < bestGap) {
        best = opponent;
        bestGap = gap;
      }
    }
    if (best < 0) continue;
    pairs.push([candidate, best]);
    used.add(candidate);
    used.add(best);
  }
  return pairs;
}

/** True while some candidate has fewer than `minDegree` distinct opponents. */
export function needsCoverage(stats: WinRateStats, minDegree: number): boolean {
  return stats.opponents.some((opponents) => opponents.size < minDegree);
}
