/**
 * A context's sequences lent one request choice at a time: a choice waits (in arrival order) while all are busy, and a
 * free choice takes the lowest free sequence, so busy sequences have consecutive ids and llama.cpp batches them together.
 */

/** Lends items of a fixed set; `use` waits for a free one and gives it back when the work settles. */
export class SequencePool<Item> {
  private readonly free: boolean[];
  private readonly waiting: ((slot: number) => void)[] = [];

  constructor(private readonly items: readonly Item[]) {
    this.free = items.map(() => true);
  }

  /** Runs `work` on the lowest free item; `slot` is its index in the set. */
  async use<Result>(work: (item: Item, slot: number) => Promise<Result>): Promise<Result> {
    let slot = this.free.indexOf(true);
    if (slot === -1) slot = await new Promise<number>((resolve) => this.waiting.push(resolve));
    else this.free[slot] = false;
    try {
      return await work(this.items[slot]!, slot);
    } finally {
      const next = this.waiting.shift();
      if (next) next(slot);
      else this.free[slot] = true;
    }
  }
}
