/** FinQA's reward: correctness plus a table-access bonus (β = 0 reproduces rLLM's code, which only logs the bonus). */

/** Default weight of the table-access bonus. */
export const defaultTableAccessBeta = 0.1;

/** correctness + β · tableAccess; correctness is 0 or 1, tableAccess in [0, 1]. */
export function finqaReward(correctness: number, tableAccessScore: number, beta: number = defaultTableAccessBeta): number {
  return correctness + beta * tableAccessScore;
}
