/** Bradley–Terry strengths fitted by Zermelo/MM iterations (Hunter 2004) on any comparison graph. */
import type { ComparisonRecord } from "./tournament-record.js";
import { marginWeight, slotAOutcome } from "./win-rate-stats.js";

export interface BradleyTerryOptions {
  /** Count each call with V1's margin weight instead of 1. */
  weighted: boolean;
  /** τ for the margin weight. */
  tau: number;
  /** Virtual half-win games against a reference of strength 1 per candidate; keeps the MLE finite on sparse graphs. */
  prior: number;
  iterations: number;
}

const defaults: BradleyTerryOptions = { weighted: false, tau: 0.1, prior: 1, iterations: 200 };

/** Log-strengths θ (mean 0); ties count half a win to each side. */
export function fitBradleyTerry(
  count: number,
  comparisons: readonly ComparisonRecord[],
  options: Partial<BradleyTerryOptions> = {},
): number[] {
  const { weighted, tau, prior, iterations } = { ...defaults, ...options };
  const wins = new Array<number>(count).fill(prior / 2);
  const games: Array<Map<number, number>> = Array.from({ length: count }, () => new Map());
  for (const record of comparisons) {
    const weight = weighted ? marginWeight(record, tau) : 1;
    const outcome = slotAOutcome(record);
    wins[record.slotA]! += weight * outcome;
    wins[record.slotB]! += weight * (1 - outcome);
    games[record.slotA]!.set(record.slotB, (games[record.slotA]!.get(record.slotB) ?? 0) + weight);
    games[record.slotB]!.set(record.slotA, (games[record.slotB]!.get(record.slotA) ?? 0) + weight);
  }
  let strength = new Array<number>(count).fill(1);
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    const next = strength.map((own, candidate) => {
      let denominator = prior / (own + 1);
      for (const [opponent, played] of games[candidate]!) denominator += played / (own + strength[opponent]!);
      return wins[candidate]! / denominator;
    });
    const logMean = next.reduce((sum, value) => sum + Math.log(value), 0) / count;
    const scale = Math.exp(logMean);
    const change = next.reduce((largest, value, index) => Math.max(largest, Math.abs(value / scale - strength[index]!)), 0);
    strength = next.map((value) => value / scale);
    if (change < 1e-9) break;
  }
  return strength.map((value) => Math.log(value));
}
