import { describe, expect, it } from "vitest";
import { EpisodeSlots } from "../../src/engine/episode-slots.js";

/** A piece of work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("EpisodeSlots", () => {
  it("keeps at most `concurrency` pieces of work in flight across lanes, and hands freed slots out in turn", async () => {
    const slots = new EpisodeSlots(2, 2);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const enqueue = (lane: ReturnType<EpisodeSlots["lane"]>, name: string) => {
      gates.set(name, gate());
      return lane(async () => {
        started.push(name);
        await gates.get(name)!.opened;
      });
    };
    const first = slots.lane();
    const all = ["a1", "a2", "a3", "a4"].map((name) => enqueue(first, name));
    await settle();
    // The second run has not taken its lane yet: nothing starts.
    expect(started).toEqual([]);
    const second = slots.lane();
    all.push(...["b1", "b2"].map((name) => enqueue(second, name)));
    await settle();
    expect(started).toEqual(["a1", "b1"]);
    gates.get("a1")!.open();
    await settle();
    expect(started).toEqual(["a1", "b1", "a2"]);
    gates.get("b1")!.open();
    await settle();
    expect(started).toEqual(["a1", "b1", "a2", "b2"]);
    for (const name of ["a2", "b2", "a3", "a4"]) {
      gates.get(name)!.open();
      await settle();
    }
    await Promise.all(all);
    expect(started).toEqual(["a1", "b1", "a2", "b2", "a3", "a4"]);
  });

  it("starts the others' work when a run withdraws without taking a lane, and passes errors on", async () => {
    const slots = new EpisodeSlots(1, 2);
    const lane = slots.lane();
    const failing = lane(async () => {
      throw new Error("boom");
    });
    slots.withdraw();
    await expect(failing).rejects.toThrow("boom");
    await expect(lane(async () => 7)).resolves.toBe(7);
  });
});
