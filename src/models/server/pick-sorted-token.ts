/** Temperature and nucleus (top_p) sampling over a model's next-token distribution, the same arithmetic for every served model. */
import type { Rng } from "../../core/random.js";
import type { TokenAlternative } from "./served-model.js";

/**
 * Picks a token from `sorted` (the vocabulary, or its head, by descending logprob): at temperature t the weights are
 * p^(1/t), cut to the smallest head whose mass reaches `topP`, then drawn with `random`. Temperature 0 is greedy.
 */
export function pickSortedToken(sorted: readonly TokenAlternative[], temperature: number, topP: number, random: Rng): number {
  const first = sorted[0];
  if (!first) throw new Error("Cannot sample from an empty vocabulary");
  if (temperature === 0) return first.id;
  const weights = sorted.map((entry) => Math.exp(entry.logprob / temperature));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let kept = 0;
  let mass = 0;
  while (kept < sorted.length) {
    mass += weights[kept]! / total;
    kept += 1;
    if (mass >= topP) break;
  }
  let keptTotal = 0;
  for (let index = 0; index < kept; index++) keptTotal += weights[index]!;
  let threshold = random() * keptTotal;
  for (let index = 0; index < kept; index++) {
    threshold -= weights[index]!;
    if (threshold <= 0) return sorted[index]!.id;
  }
  // Rounding can leave a sliver of threshold after the last kept token; that token takes it.
  return sorted[kept - 1]!.id;
}
