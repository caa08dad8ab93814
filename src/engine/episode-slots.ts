/** Episode slots shared by several runs (the cells of an eval set): at most `concurrency` episodes in flight in all, handed out round-robin. */

/** Runs `work` when a slot is free; what `work` returns or throws is passed on. */
export type SlotLane = <Result>(work: () => Promise<Result>) => Promise<Result>;

/**
 * A pool of slots; each run takes a lane, and a freed slot goes to the next lane (in turn) with work waiting. Nothing
 * starts until `expectedRuns` runs have taken a lane or withdrawn, so that every run's recorded spend is known to a
 * shared --max-cost budget before the first episode starts, and the first slots are shared out in turn too.
 */
export class EpisodeSlots {
  private active = 0;
  private readonly lanes: Array<Array<() => void>> = [];
  private nextLane = 0;
  private arrived = 0;

  constructor(
    readonly concurrency: number,
    private readonly expectedRuns = 0,
  ) {}

  /** A run's lane: its queued work starts in its order, taking turns with the other lanes. */
  lane(): SlotLane {
    const queue: Array<() => void> = [];
    this.lanes.push(queue);
    this.arrived += 1;
    // Deferred, so that work the run queues at once (in the same tick) takes its turn with the others'.
    queueMicrotask(() => this.dispatch());
    return <Result>(work: () => Promise<Result>) =>
      new Promise<Result>((resolve, reject) => {
        queue.push(() => {
          Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              this.active -= 1;
              this.dispatch();
            });
        });
        this.dispatch();
      });
  }

  /** A run that ends without taking a lane (it failed before its first episode): the others need not wait for it. */
  withdraw(): void {
    this.arrived += 1;
    this.dispatch();
  }

  private dispatch(): void {
    if (this.arrived < this.expectedRuns) return;
    while (this.active < this.concurrency) {
      const queue = this.nextWaitingLane();
      if (!queue) return;
      this.active += 1;
      queue.shift()!();
    }
  }

  // Round-robin: the first lane with work after the one served last.
  private nextWaitingLane(): Array<() => void> | undefined {
    for (let offset = 0; offset < this.lanes.length; offset++) {
      const index = (this.nextLane + offset) % this.lanes.length;
      if (this.lanes[index]!.length > 0) {
        this.nextLane = (index + 1) % this.lanes.length;
        return this.lanes[index];
      }
    }
    return undefined;
  }
}
