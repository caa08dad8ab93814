/** V1 phase 2 (Alg. 4, SwissPairs): one round of disjoint near-tie pairs within a window of the μ ranking. */
import type { WinRateStats } from "./win-rate-stats.js";
import { pairKey, winRate } from "./win-rate-stats.js";

/**
 * `allow` is Alg. 4 read literally: the key (|μ_i − μ_j|, seen, j) puts the gap first, so a pair already judged is
 * re-judged when it is the nearest tie. `forbid` is the §4 prose ("among unseen pairs"): seen pairs are skipped.
 */
export type SwissRepeats = "allow" | "forbid";

/**
 * Walks the candidates by descending μ (lower index first on equal μ); each unused one is paired with the
 * unused opponent among the next `window` positions with the smallest key. `pool` limits the walk to the top
 * candidates (all of them in the published algorithm). The higher-ranked candidate is returned first (slot A).
 */
export function swissPairs(
  stats: WinRateStats,
  window: number,
  repeats: SwissRepeats,
  pool: number = stats.weights.length,
): Array<[number, number]> {
  const mu = stats.weights.map((_, candidate) => winRate(stats, candidate));
  const ranking = mu
    .map((_, candidate) => candidate)
    .sort((first, second) => mu[second]! - mu[first]! || first - second)
    .slice(0, pool);
  const used = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (let position = 0; position < ranking.length; position += 1) {
    const candidate = ranking[position]!;
    if (used.has(candidate)) continue;
    let best = -1;
    let bestKey: [number, number, number] = [Infinity, Infinity, Infinity];
    const last = Math.min(position + window, ranking.length - 1);
    for (let next = position + 1; next <= last; next += 1) {
      const opponent = ranking[next]!;
      if (used.has(opponent)) continue;
      const seen = stats.seenPairs.has(pairKey(candidate, opponent)) ? 1 : 0;
      if (seen === 1 && repeats === "forbid") continue;
      const key: [number, number, number] = [Math.abs(mu[candidate]! - mu[opponent]!), seen, opponent];
      if (lexicographicLess(key, bestKey)) {
        best = opponent;
        bestKey = key;
      }
    }
    if (best < 0) continue;
    pairs.push([candidate, best]);
    used.add(candidate);
    used.add(best);
  }
  return pairs;
}

function lexicographicLess(first: readonly number[], second: readonly number[]): boolean {
  for (let index = 0; index < first.length; index += 1) {
    if (first[index]! !== second[index]!) return first[index]! < second[index]!;
  }
  return false;
}
