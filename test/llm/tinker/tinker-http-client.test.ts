import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { TinkerHttpError, TinkerUnreachableError } from "../../../src/llm/tinker/tinker-errors.js";
import { TinkerHttpClient } from "../../../src/llm/tinker/tinker-http-client.js";

/** A loopback port nothing listens on: taken, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("TinkerHttpClient before the service has answered", () => {
  it("calls a refused connection unreachable at once, without retrying", async () => {
    const port = await closedPort();
    const sleeps: number[] = [];
    const client = new TinkerHttpClient({ baseUrl: `http://127.0.0.1:${port}`, credentials: () => "tml-test", sleep: async (milliseconds) => void sleeps.push(milliseconds) });
    const failure = await client.request("client/config", { json: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TinkerUnreachableError);
    expect((failure as Error).message).toMatch(new RegExp(`^cannot reach the Tinker service at http://127.0.0.1:${port}: connect ECONNREFUSED`));
    expect(sleeps).toEqual([]);
  });

  it("reports a missing key as itself, not as a connection failure", async () => {
    const client = new TinkerHttpClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      credentials: () => {
        throw new Error("Tinker needs an API key");
      },
      sleep: async () => {},
    });
    const failure = await client.request("client/config", { json: {} }).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(TinkerUnreachableError);
    expect(failure).not.toBeInstanceOf(TinkerHttpError);
    expect((failure as Error).message).toBe("Tinker needs an API key");
  });
});
