import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeHttpFetch } from "../../src/llm/node-http-fetch.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { InfraError } from "../../src/core/errors/infra-error.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

interface Received {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP server on 127.0.0.1 that records each request and answers with `handler`; returns its base URL. */
async function serve(handler: (request: http.IncomingMessage, response: http.ServerResponse) => void, received: Received[] = []) {
  server = http.createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    received.push({ method: request.method ?? "", headers: request.headers, body });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("createNodeHttpFetch", () => {
  it("sends method, headers and a sized body, and returns status, every header and the body", async () => {
    const received: Received[] = [];
    const url = await serve((_, response) => {
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.writeHead(201, { "content-type": "application/json", "retry-after": "3" });
      response.end(JSON.stringify({ ok: "é" }));
    }, received);
    const response = await createNodeHttpFetch()(`${url}/v1/chat`, { method: "POST", headers: new Headers({ "X-Test": "yes" }), body: '{"q":"ü"}' });
    expect(received[0]).toMatchObject({ method: "POST", body: '{"q":"ü"}' });
    expect(received[0]!.headers["x-test"]).toBe("yes");
    expect(received[0]!.headers["content-length"]).toBe(String(Buffer.byteLength('{"q":"ü"}')));
    expect(response.status).toBe(201);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(await response.json()).toEqual({ ok: "é" });
  });

  it("reads the buffered reply through text, json, arrayBuffer, blob and clone, dropping a UTF-8 byte-order mark", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"word":"naïve"}')]));
    });
    const response = await createNodeHttpFetch()(url);
    expect(await response.json()).toEqual({ word: "naïve" });
    expect(await response.text()).toBe('{"word":"naïve"}');
    expect(new Uint8Array(await response.arrayBuffer()).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect((await response.blob()).type).toBe("application/json");
    const copy = response.clone();
    expect(copy.status).toBe(200);
    expect(await copy.json()).toEqual({ word: "naïve" });
  });

  it("reuses one keep-alive connection for requests made one after another", async () => {
    const ports = new Set<number>();
    const url = await serve((request, response) => {
      ports.add(request.socket.remotePort!);
      response.end("{}");
    });
    const fetchOverHttp = createNodeHttpFetch();
    for (let index = 0; index < 3; index++) await (await fetchOverHttp(url, { method: "POST", body: "{}" })).text();
    expect(ports.size).toBe(1);
  });

  it("closes an idle connection before the server's announced keep-alive limit, so it never reuses one being closed", async () => {
    const ports = new Set<number>();
    let firstSocketClosed: Promise<void> | undefined;
    const url = await serve((request, response) => {
      ports.add(request.socket.remotePort!);
      firstSocketClosed ??= new Promise((resolve) => request.socket.once("close", () => resolve()));
      // Node's agent closes a free socket one second before the announced limit: here after 1 s idle.
      response.writeHead(200, { "keep-alive": "timeout=2" }).end("{}");
    });
    // The server would close idle sockets itself after 5 s; much later here, so only the client can close this one.
    server!.keepAliveTimeout = 600_000;
    const fetchOverHttp = createNodeHttpFetch();
    await (await fetchOverHttp(url, { method: "POST", body: "{}" })).text();
    await (await fetchOverHttp(url, { method: "POST", body: "{}" })).text();
    expect(ports.size).toBe(1);
    // Waits for the close itself, not a fixed time a loaded machine could overrun; it must come within the announced
    // 2 s (the agent's own 4 s idle limit would be too late: the server would be closing a socket we reuse).
    const announcedLimit = new Promise<string>((resolve) => setTimeout(() => resolve("still open at the announced limit"), 2_000).unref());
    expect(await Promise.race([firstSocketClosed!.then(() => "closed"), announcedLimit])).toBe("closed");
    await (await fetchOverHttp(url, { method: "POST", body: "{}" })).text();
    expect(ports.size).toBe(2);
  });

  it("undoes a gzip content-encoding and gives a 204 an empty body", async () => {
    const url = await serve((request, response) => {
      if (request.url === "/empty") return void response.writeHead(204).end();
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(zlib.gzipSync(JSON.stringify({ packed: true })));
    });
    const fetchOverHttp = createNodeHttpFetch();
    expect(await (await fetchOverHttp(`${url}/packed`)).json()).toEqual({ packed: true });
    const empty = await fetchOverHttp(`${url}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("follows a 308 with the same method and body, and turns a 303 into a bodiless GET, as fetch does", async () => {
    const received: Received[] = [];
    const url = await serve((request, response) => {
      if (request.url === "/moved") return void response.writeHead(308, { location: "/v1/chat" }).end();
      if (request.url === "/see-other") return void response.writeHead(303, { location: "/v1/chat" }).end();
      response.end(JSON.stringify({ at: request.url, method: request.method }));
    }, received);
    const fetchOverHttp = createNodeHttpFetch();
    const moved = await fetchOverHttp(`${url}/moved`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    expect(await moved.json()).toEqual({ at: "/v1/chat", method: "POST" });
    expect(received[1]!.body).toBe('{"a":1}');
    const seeOther = await fetchOverHttp(`${url}/see-other`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    expect(await seeOther.json()).toEqual({ at: "/v1/chat", method: "GET" });
    expect(received[3]).toMatchObject({ method: "GET", body: "" });
    expect(received[3]!.headers["content-type"]).toBeUndefined();
  });

  it("gives up after 20 redirects in a row", async () => {
    const url = await serve((_, response) => void response.writeHead(307, { location: "/again" }).end());
    await expect(createNodeHttpFetch()(url, { method: "POST", body: "{}" })).rejects.toThrow(/more than 20 redirects/);
  });

  it("rejects when the connection closes mid-reply", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"partial":');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await expect(createNodeHttpFetch()(url, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("rejects with an AbortError when the signal aborts while the reply is still coming", async () => {
    let replyStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (replyStarted = resolve));
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"slow":', () => replyStarted());
    });
    const controller = new AbortController();
    const pending = createNodeHttpFetch()(url, { method: "POST", body: "{}", signal: controller.signal });
    // Abort once half a reply is on its way, not after a fixed delay.
    await started;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("hands bodies other than strings to the built-in fetch", async () => {
    const received: Received[] = [];
    const url = await serve((_, response) => response.end("done"), received);
    const response = await createNodeHttpFetch()(url, { method: "POST", body: new URLSearchParams({ a: "1" }) });
    expect(await response.text()).toBe("done");
    expect(received[0]!.body).toBe("a=1");
    expect(received[0]!.headers["content-type"]).toMatch(/x-www-form-urlencoded/);
  });
});

describe("createOpenAiClient over node:http", () => {
  it("turns a reply slower than the request timeout into an infra error", async () => {
    const url = await serve(() => undefined);
    const client = createOpenAiClient({ baseUrl: `${url}/v1`, model: "m", requestTimeoutMs: 100, retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    await expect(client.chat({ messages: [{ role: "user", content: "hi" }] })).rejects.toBeInstanceOf(InfraError);
  });

  it("turns a reply that is not a chat completion into an infra error naming the field", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ choices: [] }));
    });
    const client = createOpenAiClient({ baseUrl: `${url}/v1`, model: "m" });
    await expect(client.chat({ messages: [{ role: "user", content: "hi" }] })).rejects.toThrow(/malformed reply[\s\S]*choices/);
  });
});
