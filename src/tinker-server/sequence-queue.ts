/**
 * One model's requests in seq_id order, as the Tinker service runs them: a request waits until every lower seq_id has
 * run, so chunks sent in parallel still apply in order; a reused or already passed seq_id is refused.
 */

/** Runs jobs strictly in seq_id order, starting at 1. */
export class SequenceQueue {
  private next = 1;
  private readonly pending = new Map<number, () => Promise<void>>();
  private running = false;
  /** seq_ids in the order their jobs ran, for tests and logs. */
  readonly ran: number[] = [];

  /** Why `seqId` cannot be queued, or undefined when it can. */
  refusal(seqId: number): string | undefined {
    if (!Number.isInteger(seqId) || seqId < 1) return `seq_id ${seqId} is missing or not positive (seq_ids start at 1)`;
    if (seqId < this.next || this.pending.has(seqId)) return `seq_id ${seqId} was already used (the next is ${this.next})`;
    return undefined;
  }

  /** Queues `job` under `seqId` (check `refusal` first); it runs once every lower seq_id has. */
  enqueue(seqId: number, job: () => Promise<void>): void {
    this.pending.set(seqId, job);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let job = this.pending.get(this.next); job; job = this.pending.get(this.next)) {
        this.pending.delete(this.next);
        this.ran.push(this.next);
        this.next += 1;
        await job();
      }
    } finally {
      this.running = false;
    }
  }
}
