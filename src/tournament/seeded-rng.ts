/** Random helpers for tournaments and simulations, on the project's seeded generator. */

import { createRng, type Rng } from "../core/seeded-rng.js";

export { createRng, type Rng };

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
