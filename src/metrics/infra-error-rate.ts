/** The share of episodes (or graded rows) that ended as infrastructure errors, and the level at which it is reported. */

/**
 * Above this share `rllm eval` warns. An infrastructure error is left out of the accuracy and of training, so a rate
 * past 1% is large enough to move a reported accuracy by more than its usual difference between two models.
 */
export const infraErrorWarningRate = 0.01;

/** infra ÷ total, 0 when there is nothing (no division by zero). */
export function infraErrorRate(infra: number, total: number): number {
  return total === 0 ? 0 : infra / total;
}
