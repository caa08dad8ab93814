/**
 * The project's one seeded random module: the mulberry32 generator and every draw built on it, so data, weights,
 * sampling, tournaments and per-episode seeds replay exactly. A seeded `Rng` comes in as an argument; nothing here
 * reads Math.random or a clock.
 */

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

/** A uniform integer in [low, high], both ends included. */
export function randomIntBetween(rng: Rng, low: number, high: number): number {
  return low + randomInt(rng, high - low + 1);
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

/** A standard normal draw (Box–Muller on 1 − u, which is never 0). */
export function normal(rng: Rng): number {
  return boxMuller(1 - rng(), rng());
}

/**
 * A standard normal draw (Box–Muller on u clamped at 1e-12). It differs from `normal` only in how it keeps log(0)
 * out, and stays because the tiny model's initial weights, and so its shipped checkpoints, were drawn with it.
 */
export function clampedNormal(rng: Rng): number {
  return boxMuller(Math.max(rng(), 1e-12), rng());
}

/** Box–Muller: a standard normal from a uniform `radiusDraw` in (0, 1] and a uniform `angleDraw` in [0, 1). */
function boxMuller(radiusDraw: number, angleDraw: number): number {
  return Math.sqrt(-2 * Math.log(radiusDraw)) * Math.cos(2 * Math.PI * angleDraw);
}

/** A 31-bit seed from the run seed, the task id and the attempt (FNV-1a over the three): distinct for every (task, attempt), identical when a run is resumed or repeated. */
export function deriveSeed(runSeed: number, taskId: string, attempt: number): number {
  let hash = 0x811c9dc5;
  for (const character of `${runSeed}\u0000${taskId}\u0000${attempt}`) {
    hash ^= character.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}
