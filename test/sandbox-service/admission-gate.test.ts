import { describe, expect, it } from "vitest";
import { AdmissionGate } from "../../src/sandbox-service/admission-gate.js";

describe("AdmissionGate", () => {
  it("runs up to its concurrency, queues up to its limit, and refuses past it", async () => {
    const gate = new AdmissionGate(1, 1);
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const first = gate.tryRun(() => blocked.then(() => "first"));
    const second = gate.tryRun(async () => "second");
    await Promise.resolve();
    expect(gate.inFlight).toBe(1);
    expect(gate.queued).toBe(1);
    expect(await gate.tryRun(async () => "third")).toBeUndefined();
    release();
    expect(await first).toEqual({ value: "first" });
    expect(await second).toEqual({ value: "second" });
    expect(gate.inFlight).toBe(0);
  });

  it("frees its place when the work throws", async () => {
    const gate = new AdmissionGate(1, 0);
    await expect(gate.tryRun(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.tryRun(async () => 1)).toEqual({ value: 1 });
  });
});
