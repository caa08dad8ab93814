import { describe, expect, it } from "vitest";
import { SequenceQueue } from "../../src/tinker-server/sequence-queue.js";

describe("SequenceQueue", () => {
  it("runs jobs in seq_id order however they arrive", async () => {
    const queue = new SequenceQueue();
    const ran: number[] = [];
    const done = new Promise<void>((resolve) => {
      for (const seqId of [3, 1, 4, 2]) queue.enqueue(seqId, async () => {
        ran.push(seqId);
        if (ran.length === 4) resolve();
      });
    });
    await done;
    expect(ran).toEqual([1, 2, 3, 4]);
  });

  it("refuses a reused, passed or missing seq_id", async () => {
    const queue = new SequenceQueue();
    queue.enqueue(1, async () => {});
    await Promise.resolve();
    expect(queue.refusal(1)).toMatch(/already used/);
    expect(queue.refusal(0)).toMatch(/not positive/);
    expect(queue.refusal(2)).toBeUndefined();
  });
});
