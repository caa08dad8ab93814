/** A context's sequences lent one request choice at a time: a choice waits (in arrival order) while all are busy. */

/** Lends items of a fixed set; `use` waits for a free one and gives it back when the work settles. */
export class SequencePool<Item> {
  private readonly free: Item[];
  private readonly waiting: ((item: Item) => void)[] = [];

  constructor(items: readonly Item[]) {
    this.free = [...items];
  }

  /** Runs `work` on a free item. */
  async use<Result>(work: (item: Item) => Promise<Result>): Promise<Result> {
    const item = this.free.pop() ?? (await new Promise<Item>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(item);
    } finally {
      const next = this.waiting.shift();
      if (next) next(item);
      else this.free.push(item);
    }
  }
}
