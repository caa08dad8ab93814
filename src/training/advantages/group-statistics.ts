/** Mean and standard deviation of a list of rewards, the two numbers every estimator centres and scales by. */

/** Mean of `values` (0 for an empty list, never NaN). */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Population standard deviation (ddof 0, numpy's default); 0 for an empty list. */
export function populationStd(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const centre = mean(values);
  let sumOfSquares = 0;
  for (const value of values) sumOfSquares += (value - centre) ** 2;
  return Math.sqrt(sumOfSquares / values.length);
}

/** Sample standard deviation (ddof 1, Bessel-corrected, torch.std's default that verl's GRPO uses); 0 below two values. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  return populationStd(values) * Math.sqrt(values.length / (values.length - 1));
}

/** Added to every standard deviation before dividing, so a zero-variance group yields zeros, not NaN. */
export const STD_EPSILON = 1e-6;
