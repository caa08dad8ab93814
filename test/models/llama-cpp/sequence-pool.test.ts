// A context has a fixed number of sequences; choices beyond them wait, in arrival order, each sequence is lent to one
// at a time, and the lowest free one goes first (llama.cpp batches consecutive sequence ids together).
import { describe, expect, it } from "vitest";
import { SequencePool } from "../../../src/models/llama-cpp/sequence-pool.js";

describe("SequencePool", () => {
  it("lends each item to one piece of work at a time and queues the rest in arrival order", async () => {
    const pool = new SequencePool(["a", "b"]);
    const busy = new Set<string>();
    const started: number[] = [];
    let overlapped = false;
    const release: (() => void)[] = [];
    const works = [0, 1, 2, 3].map((index) =>
      pool.use(async (item) => {
        if (busy.has(item)) overlapped = true;
        busy.add(item);
        started.push(index);
        await new Promise<void>((resolve) => release.push(resolve));
        busy.delete(item);
        return item;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    while (release.length > 0 || started.length < 4) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()?.();
    }
    await Promise.all(works);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(overlapped).toBe(false);
  });

  it("lends the lowest free item", async () => {
    const pool = new SequencePool(["a", "b", "c"]);
    let releaseFirst!: () => void;
    const first = pool.use((item) => new Promise<string>((resolve) => (releaseFirst = () => resolve(item))));
    const slots: number[] = [];
    await pool.use(async (_item, slot) => slots.push(slot));
    releaseFirst();
    expect(await first).toBe("a");
    await pool.use(async (_item, slot) => slots.push(slot));
    expect(slots).toEqual([1, 0]);
  });

  it("gives the item back when the work throws", async () => {
    const pool = new SequencePool(["only"]);
    await expect(pool.use(async () => Promise.reject(new Error("failed")))).rejects.toThrow("failed");
    expect(await pool.use(async (item) => item)).toBe("only");
  });
});
