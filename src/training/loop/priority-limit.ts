/**
 * A concurrency limit whose queue runs the lowest priority number first (ties in arrival order): the rollout groups
 * of an earlier step take free slots before a later step's, so a group's judge calls, queued only once its solvers
 * finish, do not wait behind rollouts of groups dispatched after it, which would leave it to finish last and stale.
 */

/** Runs `task` under the limit. */
export type Limited = <Result>(task: () => Promise<Result>) => Promise<Result>;

export class PriorityLimit {
  private active = 0;
  private arrivals = 0;
  private readonly queue: { priority: number; arrival: number; start: () => void }[] = [];

  constructor(private readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }

  /** A limit function whose tasks all queue at `priority`. */
  at(priority: number): Limited {
    return (task) => this.run(priority, task);
  }

  /** Runs `task` once fewer than `concurrency` tasks run and no lower-numbered (or earlier equal) one waits. */
  run<Result>(priority: number, task: () => Promise<Result>): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const start = () => {
        this.active += 1;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.active -= 1;
            this.next();
          });
      };
      this.queue.push({ priority, arrival: this.arrivals++, start });
      this.next();
    });
  }

  private next(): void {
    while (this.active < this.concurrency && this.queue.length > 0) {
      let best = 0;
      for (let index = 1; index < this.queue.length; index++) {
        const entry = this.queue[index]!;
        const chosen = this.queue[best]!;
        if (entry.priority < chosen.priority || (entry.priority === chosen.priority && entry.arrival < chosen.arrival)) best = index;
      }
      this.queue.splice(best, 1)[0]!.start();
    }
  }
}
