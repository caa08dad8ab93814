import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedHosts } from "../../src/http/check-request-origin.js";
import { startRerankServer } from "../../src/tournament/rerank-server.js";
import { startGateway, type Gateway } from "../../src/gateway/gateway-server.js";
import { startFakeVllm, type FakeVllm } from "../gateway/fake-vllm-server.js";

// Issue #29: the gateway accepted a text/plain POST with a foreign Origin and Host (what a web page the operator visits
// can send, with DNS rebinding for the Host) and forwarded it upstream with the operator's key. Every server rllm
// starts goes through src/http's startHttpServer and readJsonBody, which now refuse such requests.

/** A raw POST (fetch cannot set Host): the status and the reply's error message. */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; message: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: response.statusCode ?? 0, message: text.startsWith("{") ? (JSON.parse(text).error?.message ?? "") : text });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

const chatBody = JSON.stringify({ model: "m", messages: [{ role: "user", content: "spend the operator's credits" }] });

let upstream: FakeVllm;
let gateway: Gateway;
let port: string;

beforeAll(async () => {
  upstream = await startFakeVllm();
  gateway = await startGateway({ upstream: upstream.baseUrl, apiKey: "sk-operator" });
  port = new URL(gateway.url).port;
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe("the gateway against cross-site requests", () => {
  it("refuses the attack as written: text/plain, foreign Origin and Host; nothing reaches the upstream", async () => {
    const reply = await post(`${gateway.url}/v1/chat/completions`, { "content-type": "text/plain", origin: "http://evil.example", host: `evil.example:${port}` }, chatBody);
    expect(reply.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it("refuses a foreign Host (DNS rebinding) with a 403 that names the addresses it answers to", async () => {
    const reply = await post(`${gateway.url}/v1/chat/completions`, { "content-type": "application/json", host: `evil.example:${port}` }, chatBody);
    expect(reply).toEqual({ status: 403, message: expect.stringMatching(/Host "evil.example:\d+" is not this server's address; it answers to .*localhost/) });
  });

  it("refuses a foreign Origin with a 403, also on a JSON request", async () => {
    const reply = await post(`${gateway.url}/v1/chat/completions`, { "content-type": "application/json", origin: "http://evil.example" }, chatBody);
    expect(reply).toEqual({ status: 403, message: expect.stringMatching(/cross-origin requests are refused: Origin "http:\/\/evil.example"/) });
  });

  it("refuses a text/plain body from the right host with a 415", async () => {
    const reply = await post(`${gateway.url}/v1/chat/completions`, { "content-type": "text/plain" }, chatBody);
    expect(reply).toEqual({ status: 415, message: "Request body must be sent as application/json, not text/plain" });
    const session = await post(`${gateway.url}/sessions`, { "content-type": "text/plain" }, '{"session_id":"planted"}');
    expect(session.status).toBe(415);
    expect(upstream.requests).toHaveLength(0);
  });

  it("forwards a request whose loopback Host carries another port (an SSH tunnel or a local proxy in front)", async () => {
    const reply = await post(`${gateway.url}/v1/chat/completions`, { "content-type": "application/json", host: "localhost:1" }, chatBody);
    expect(reply.status).not.toBe(403);
  });

  it.each(["127.0.0.1", "localhost", "[::1]"])("forwards a JSON request whose Host is %s with the port, and a same-origin Origin", async (name) => {
    const host = `${name}:${port}`;
    const reply = await post(`${gateway.url}/v1/chat/completions`, { "content-type": "application/json", host, origin: `http://${host}` }, chatBody);
    expect(reply.status).toBe(200);
  });
});

describe("the other servers share the guard (rllm serve)", () => {
  it("refuses a foreign Origin and a text/plain body on the rerank server", async () => {
    // The upstream is never called: both requests are refused before the handler reads them.
    const server = await startRerankServer({ upstream: "http://127.0.0.1:9/v1", model: "m", n: 2, budget: 1, maxCalls: 256, method: "v1", judgeKind: "math", port: 0 });
    try {
      const url = `${server.url}/chat/completions`;
      expect((await post(url, { "content-type": "application/json", origin: "http://evil.example" }, chatBody)).status).toBe(403);
      expect((await post(url, { "content-type": "text/plain" }, chatBody)).status).toBe(415);
    } finally {
      await server.close();
    }
  });
});

describe("allowedHosts", () => {
  it("answers to every loopback spelling when bound to loopback, and checks no Host on a wildcard bind", () => {
    expect(allowedHosts("127.0.0.1")).toEqual(new Set(["127.0.0.1", "localhost", "[::1]"]));
    expect(allowedHosts("::1")?.has("localhost")).toBe(true);
    expect(allowedHosts("10.1.2.3")).toEqual(new Set(["10.1.2.3"]));
    expect(allowedHosts("0.0.0.0")).toBeUndefined();
    expect(allowedHosts("::")).toBeUndefined();
  });
});
