/** V1's sufficient statistics: margin-weighted wins, weights, distinct opponents and the set of pairs already judged. */
import type { ComparisonRecord } from "./tournament-record.js";

export interface WinRateStats {
  /** Σ w·v per candidate. */
  weightedWins: number[];
  /** Σ w per candidate. */
  weights: number[];
  /** Distinct opponents met (d_i is its size). */
  opponents: Array<Set<number>>;
  /** Unordered pairs already judged, as `low:high`. */
  seenPairs: Set<string>;
}

/** Empty statistics for `count` candidates. */
export function createWinRateStats(count: number): WinRateStats {
  return {
    weightedWins: new Array<number>(count).fill(0),
    weights: new Array<number>(count).fill(0),
    opponents: Array.from({ length: count }, () => new Set<number>()),
    seenPairs: new Set<string>(),
  };
}

/** The key of an unordered pair. */
export function pairKey(first: number, second: number): string {
  return first < second ? `${first}:${second}` : `${second}:${first}`;
}

/** V1's confidence weight w = max(|r_A − r_B| / 9, τ); a parse error (no ratings) gets the floor τ. */
export function marginWeight(record: Pick<ComparisonRecord, "ratingA" | "ratingB">, tau: number): number {
  if (record.ratingA === null || record.ratingB === null) return tau;
  return Math.max(Math.abs(record.ratingA - record.ratingB) / 9, tau);
}

/** The outcome v for the candidate in slot A: 1 win, 0.5 tie (or parse error), 0 loss. */
export function slotAOutcome(record: Pick<ComparisonRecord, "winner">): number {
  return record.winner === "A" ? 1 : record.winner === "tie" ? 0.5 : 0;
}

/** Folds judge calls into the statistics (mutates `stats`; d_i grows only on a first meeting). */
export function recordComparisons(stats: WinRateStats, records: readonly ComparisonRecord[], tau: number): void {
  for (const record of records) {
    const weight = marginWeight(record, tau);
    const outcome = slotAOutcome(record);
    stats.weightedWins[record.slotA]! += weight * outcome;
    stats.weightedWins[record.slotB]! += weight * (1 - outcome);
    stats.weights[record.slotA]! += weight;
    stats.weights[record.slotB]! += weight;
    stats.opponents[record.slotA]!.add(record.slotB);
    stats.opponents[record.slotB]!.add(record.slotA);
    stats.seenPairs.add(pairKey(record.slotA, record.slotB));
  }
}

/** μ_i = Σ w·v / Σ w, or 0.5 before the first comparison. */
export function winRate(stats: WinRateStats, candidate: number): number {
  const weight = stats.weights[candidate] as number;
  return weight > 0 ? (stats.weightedWins[candidate] as number) / weight : 0.5;
}

/** μ for every candidate. */
export function winRates(stats: WinRateStats): number[] {
  return stats.weights.map((_, candidate) => winRate(stats, candidate));
}
