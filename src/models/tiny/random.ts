/** Random helpers for the tiny model's data, weights and sampling, on the project's seeded generator. */

import { createRng, type Rng } from "../../core/seeded-rng.js";

/** A generator of uniform numbers in [0, 1). */
export type Random = Rng;

/** The project's mulberry32 generator seeded with a 32-bit integer. */
export function seededRandom(seed: number): Random {
  return createRng(seed);
}

/** An integer in [low, high], both ends included. */
export function randomInt(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** A standard normal sample (Box-Muller). */
export function randomNormal(random: Random): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
