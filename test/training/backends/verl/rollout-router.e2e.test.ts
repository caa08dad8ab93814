// The rollout router over real HTTP on 127.0.0.1: it waits out paused servers and spreads requests over the servers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startRolloutRouter, type RolloutRouter } from "../../../../src/training/backends/verl/rollout-router.js";

const servers: http.Server[] = [];
let router: RolloutRouter | undefined;

/**
 * A server that answers 503 for its first `pausedFor` requests (asleep for weight sync), then echoes the body; with a
 * `gate`, it holds each reply until the gate opens.
 */
async function startServer(pausedFor = 0, gate: Promise<void> = Promise.resolve()): Promise<{ address: string; bodies: string[] }> {
  const bodies: string[] = [];
  let seen = 0;
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen += 1;
      if (seen <= pausedFor) {
        response.writeHead(503).end("sleeping");
        return;
      }
      bodies.push(body);
      void gate.then(() => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ path: request.url, body: JSON.parse(body) })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

afterEach(async () => {
  await router?.close();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const post = (body: unknown) => fetch(`${router!.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("rollout router", () => {
  it("forwards the request unchanged to a rollout server", async () => {
    const server = await startServer();
    router = await startRolloutRouter({ serverAddresses: [server.address] });
    const reply = await post({ return_token_ids: true, logprobs: true });
    expect(await reply.json()).toEqual({ path: "/v1/chat/completions", body: { return_token_ids: true, logprobs: true } });
  });

  it("stamps a JSON reply with the version the servers hold, unless the server stamped it itself", async () => {
    const { address } = await startServer();
    let version = 4;
    router = await startRolloutRouter({ serverAddresses: [address], retryDelayMs: 10, version: () => version });
    expect(((await (await post({ model: "m" })).json()) as { weight_version: number }).weight_version).toBe(4);
    version = 5;
    expect(((await (await post({ model: "m" })).json()) as { weight_version: number }).weight_version).toBe(5);
  });

  it("retries while every server is paused (503), then answers from the first that wakes", async () => {
    const first = await startServer(3);
    const second = await startServer(3);
    router = await startRolloutRouter({ serverAddresses: [first.address, second.address], retryDelayMs: 10 });
    expect((await post({ n: 1 })).status).toBe(200);
    expect(first.bodies.length + second.bodies.length).toBe(1);
  });

  it("gives up with a 503 naming the last failure once the pause tolerance has passed", async () => {
    router = await startRolloutRouter({ serverAddresses: ["127.0.0.1:9"], pauseToleranceMs: 50, retryDelayMs: 10 });
    const reply = await post({});
    expect(reply.status).toBe(503);
    expect(((await reply.json()) as { error: { message: string } }).error.message).toContain("every verl rollout server stayed unavailable");
  });

  it("sends a request to the server with fewer in flight, and follows a new server list", async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = await startServer(0, gate);
    const second = await startServer(0, gate);
    router = await startRolloutRouter({ serverAddresses: [first.address, second.address] });
    // The first request is held on the first server, so the second must go to the other one.
    const held = post({ index: 0 });
    while (first.bodies.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const next = post({ index: 1 });
    while (second.bodies.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    open();
    await Promise.all([held, next]);
    expect([first.bodies, second.bodies]).toEqual([['{"index":0}'], ['{"index":1}']]);
    const third = await startServer();
    router.setServers([third.address]);
    await post({ index: 7 });
    expect(third.bodies).toEqual(['{"index":7}']);
  });
});
