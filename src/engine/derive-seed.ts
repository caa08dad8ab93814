/** Per-episode sampling seeds: distinct for every (task, attempt), identical when a run is resumed or repeated. */

/** A 31-bit seed from the run seed, the task id and the attempt (FNV-1a over the three). */
export function deriveSeed(runSeed: number, taskId: string, attempt: number): number {
  let hash = 0x811c9dc5;
  for (const character of `${runSeed}\u0000${taskId}\u0000${attempt}`) {
    hash ^= character.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}
