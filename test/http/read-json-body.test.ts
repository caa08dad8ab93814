import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readJsonBody } from "../../src/http/read-json-body.js";
import { sendError, sendJson } from "../../src/http/send-json.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A server that echoes the parsed body, with a 16-byte limit. */
async function echoServer(): Promise<string> {
  server = http.createServer((request, response) => {
    readJsonBody(request, 16).then(
      (body) => sendJson(response, 200, { body: body ?? null }),
      (error: unknown) => sendError(response, error),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = { "content-type": "application/json" };

describe("readJsonBody", () => {
  it("parses a body within the limit, and an empty body as undefined", async () => {
    const url = await echoServer();
    expect(await (await fetch(url, { method: "POST", headers: json, body: '{"a":1}' })).json()).toEqual({ body: { a: 1 } });
    expect(await (await fetch(url, { method: "POST" })).json()).toEqual({ body: null });
  });

  it("answers a body over the limit with an OpenAI-shaped 413, also when it arrives chunked without a length", async () => {
    const url = await echoServer();
    const sized = await fetch(url, { method: "POST", headers: json, body: JSON.stringify({ text: "x".repeat(64) }) });
    expect(sized.status).toBe(413);
    expect((await sized.json()).error).toMatchObject({ code: 413, type: "invalid_request_error", message: expect.stringMatching(/16 bytes/) });
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = http.request(url, { method: "POST", headers: { "transfer-encoding": "chunked" } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
      request.write('{"text":"');
      request.end(`${"y".repeat(64)}"}`);
    });
    expect(chunked).toBe(413);
  });

  it("refuses arrays and objects nested past 512 levels with a 400, counting no bracket inside a string (issue #44)", async () => {
    server = http.createServer((request, response) => {
      readJsonBody(request, 1_000_000).then(
        (body) => sendJson(response, 200, { ok: body !== undefined }),
        (error: unknown) => sendError(response, error),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (body: string) => fetch(url, { method: "POST", headers: json, body });
    const nested = (depth: number, open = "[", close = "]") => `${open.repeat(depth)}${close.repeat(depth)}`;
    expect((await post(nested(512))).status).toBe(200);
    expect((await post(`{"a":${"[".repeat(510)}{}${"]".repeat(510)}}`)).status).toBe(200);
    expect((await post(JSON.stringify({ text: `${"[{".repeat(2000)}\\"]` }))).status).toBe(200);
    for (const body of [nested(513), `{"a":${nested(600)}}`, `[${'{"b":'.repeat(513)}1${"}".repeat(513)}]`]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toBe("Request body nested deeper than 512 levels");
    }
  });

  it("answers malformed JSON with a 400", async () => {
    const url = await echoServer();
    const response = await fetch(url, { method: "POST", headers: json, body: "{not json" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/Malformed JSON/);
  });

  it.each([["text/plain", "text/plain"], ["a form", "application/x-www-form-urlencoded"], ["no content type", undefined]])(
    "refuses a body sent as %s with a 415: a web page can send those without a preflight (issue #29)",
    async (_, contentType) => {
      const url = await echoServer();
      const status = await new Promise<number>((resolve, reject) => {
        const headers = contentType === undefined ? {} : { "content-type": contentType };
        const request = http.request(url, { method: "POST", headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", reject);
        request.end('{"a":1}');
      });
      expect(status).toBe(415);
    },
  );

  it("accepts application/json with a charset", async () => {
    const url = await echoServer();
    const response = await fetch(url, { method: "POST", headers: { "content-type": "Application/JSON; charset=utf-8" }, body: '{"a":1}' });
    expect(await response.json()).toEqual({ body: { a: 1 } });
  });
});
