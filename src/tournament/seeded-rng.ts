/** A small seeded random number generator (mulberry32), so tournaments and simulations replay exactly. */

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

/** A uniform integer in [0, bound). */
export function randomInt(rng: Rng, bound: number): number {
  return Math.floor(rng() * bound);
}

/** Fisher–Yates shuffle of a copy of `items`. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(rng, index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** A standard normal draw (Box–Muller). */
export function normal(rng: Rng): number {
  const radius = Math.sqrt(-2 * Math.log(1 - rng()));
  return radius * Math.cos(2 * Math.PI * rng());
}
