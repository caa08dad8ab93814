/**
 * The local Tinker server's key check: a server started with --api-key admits that key only, and a wrong key of any
 * encoding is a 401, never a 500 (issue #44: keys are compared as digests, as the other servers compare them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalTinkerServer, type LocalTinkerServer } from "../../src/tinker-server/local-tinker-server.js";

let server: LocalTinkerServer;
beforeAll(async () => {
  server = await startLocalTinkerServer({ apiKey: "tml-right-key" });
});
afterAll(() => server.close());

async function statusWith(key: string | undefined): Promise<number> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== undefined) headers["x-api-key"] = key;
  const response = await fetch(`${server.url}/api/v1/get_server_capabilities`, { method: "POST", headers, body: "{}" });
  await response.arrayBuffer();
  return response.status;
}

describe("local Tinker server API key", () => {
  it("admits the key it was started with", async () => {
    expect(await statusWith("tml-right-key")).toBe(200);
  });

  it.each([
    ["a wrong key of the same length", "tml-wrong-key"],
    ["the right key's prefix", "tml-right"],
    ["a key the default check would admit", "tml-anything"],
    ["a non-ASCII key of the right length in characters", "tml-right-ké"],
  ])("refuses %s with a 401", async (_name, key) => {
    expect(await statusWith(key)).toBe(401);
  });

  it("refuses a request without a key with a 401", async () => {
    expect(await statusWith(undefined)).toBe(401);
  });
});
