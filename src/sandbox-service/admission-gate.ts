/** Concurrency with a bounded queue: past the queue the service answers 429 with Retry-After instead of piling up work. */

export class AdmissionGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `work` when a place is free; undefined (nothing run) when the queue is full. */
  async tryRun<T>(work: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueLimit) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return { value: await work() };
    } finally {
      const next = this.waiting.shift();
      // The place passes straight to the next waiter, so `running` never drops below the concurrency while work waits.
      if (next) next();
      else this.running -= 1;
    }
  }
}
