/** The project's one seeded random number generator (mulberry32), so data, weights, sampling and tournaments replay exactly. */

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** A mulberry32 generator seeded with a 32-bit integer. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
