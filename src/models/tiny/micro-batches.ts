/** Splits a batch into length-sorted micro-batches of a bounded number of padded positions, for gradient accumulation. */

/**
 * Splits `sequences` into micro-batches of at most `maxPositions` padded positions (rows × longest row), after sorting
 * by length so that rows of like length share a block and little is padding. A row longer than the budget goes alone.
 */
export function microBatches<T extends { tokens: readonly number[] }>(sequences: readonly T[], maxPositions: number): T[][] {
  const sorted = [...sequences].sort((first, second) => first.tokens.length - second.tokens.length);
  const batches: T[][] = [];
  let current: T[] = [];
  for (const sequence of sorted) {
    // Sorted ascending, so this row is the longest of the block it joins.
    if (current.length > 0 && (current.length + 1) * sequence.tokens.length > maxPositions) {
      batches.push(current);
      current = [];
    }
    current.push(sequence);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
