/** A fixed set of sandbox slots; each run holds one, so runs never exceed the pool size and each slot has its own uid. */

/** Hands out slot numbers 0..size-1, queueing callers when all are taken. */
export class SlotPool {
  private readonly free: number[];
  private readonly waiting: ((slot: number) => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`pool size must be a positive integer, got ${size}`);
    this.free = Array.from({ length: size }, (_, slot) => slot);
  }

  /** Runs `work` while holding a slot. */
  async withSlot<T>(work: (slot: number) => Promise<T>): Promise<T> {
    const slot = this.free.pop() ?? (await new Promise<number>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(slot);
    } finally {
      const next = this.waiting.shift();
      if (next) next(slot);
      else this.free.push(slot);
    }
  }
}
