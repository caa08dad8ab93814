/** Percentiles by linear interpolation between order statistics (numpy's default). */

/** The q-th percentile (0..100) of `values`; 0 for an empty list. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const position = ((sorted.length - 1) * q) / 100;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}
