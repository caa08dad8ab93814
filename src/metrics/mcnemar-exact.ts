/** McNemar's exact test: whether two runs' discordant tasks split unevenly, as a two-sided binomial test at p = ½. */

/**
 * Two-sided exact p-value for `onlyA` tasks solved by run A alone and `onlyB` by run B alone: under the null each
 * discordant task goes either way with probability ½, so p = min(1, 2 · P(X ≤ min(onlyA, onlyB))), X ~ Bin(n, ½).
 * 1 when there is no discordant task. Summed in log space so that thousands of discordant tasks stay finite.
 */
export function mcnemarExactPValue(onlyA: number, onlyB: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const smaller = Math.min(onlyA, onlyB);
  let logProbability = -n * Math.LN2;
  let tail = 0;
  for (let k = 0; k <= smaller; k++) {
    tail += Math.exp(logProbability);
    logProbability += Math.log(n - k) - Math.log(k + 1);
  }
  return Math.min(1, 2 * tail);
}
