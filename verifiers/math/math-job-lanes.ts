/**
 * The math pool's waiting jobs, in one lane per grading thread by ground truth. Every job of a ground truth waits in
 * the same lane, so one thread grades them all while it has work: its caches (the parsed ground truth, the compiled
 * expressions, their 64-digit values at the sample points) serve every response graded against that ground truth,
 * instead of each thread building them again for its share of the samples. A thread whose lane is empty takes from
 * the longest other lane, so no thread idles while jobs wait.
 */
import type { MathGroundTruth } from "./grade-math-under-policy.js";

/** Something that waits in a lane. */
export interface Laned {
  lane: number;
}

/** Jobs waiting, in lanes; order is kept within a lane. */
export class MathJobLanes<T extends Laned> {
  private readonly lanes: T[][];
  private waiting = 0;

  constructor(readonly laneCount: number) {
    this.lanes = Array.from({ length: Math.max(1, laneCount) }, () => []);
  }

  /** Jobs waiting in all lanes. */
  get length(): number {
    return this.waiting;
  }

  /** Queues `item` last in its lane. */
  push(item: T): void {
    this.lanes[item.lane % this.lanes.length]!.push(item);
    this.waiting += 1;
  }

  /** Queues `items` first in their lanes, in their order (a chunk handed back, a control check). */
  unshift(...items: T[]): void {
    for (const item of [...items].reverse()) this.lanes[item.lane % this.lanes.length]!.unshift(item);
    this.waiting += items.length;
  }

  /** Up to `count` jobs for the thread of `lane`: from its own lane, or when that is empty from the longest other. */
  take(lane: number, count: number): T[] {
    const own = this.lanes[lane % this.lanes.length]!;
    const source = own.length > 0 ? own : this.lanes.reduce((longest, other) => (other.length > longest.length ? other : longest));
    const taken = source.splice(0, count);
    this.waiting -= taken.length;
    return taken;
  }
}

/** The lane of a ground truth (FNV-1a of its text): the same ground truth always gets the same lane. */
export function groundTruthLane(groundTruth: MathGroundTruth, laneCount: number): number {
  const text = typeof groundTruth === "string" ? groundTruth : JSON.stringify(groundTruth);
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % Math.max(1, laneCount);
}
