import { describe, expect, it } from "vitest";
import { openRunServices } from "../../src/evaluation/run-services.js";

describe("openRunServices", () => {
  it("gives every run (every cell of an eval set) against one base URL the same rate limiter, and other endpoints their own", async () => {
    const services = await openRunServices({ rpm: 120, tpm: 40_000 });
    try {
      const first = services.limiterFor("http://127.0.0.1:1/v1");
      expect(first).toBeDefined();
      expect(services.limiterFor("http://127.0.0.1:1/v1")).toBe(first);
      expect(services.limiterFor("http://127.0.0.1:2/v1")).not.toBe(first);
    } finally {
      services.close();
    }
  });

  it("has no limiter without limits", async () => {
    const services = await openRunServices({});
    expect(services.limiterFor("http://127.0.0.1:1/v1")).toBeUndefined();
    services.close();
  });
});
