import http from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createChatCompletionsSender } from "../../src/llm/chat-completions-sender.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP server on 127.0.0.1 answering with `handler`; returns its /v1 base URL. */
async function serve(handler: (response: http.ServerResponse) => void, received: Received[] = []) {
  server = http.createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    received.push({ url: request.url ?? "", headers: request.headers, body });
    handler(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const sdkFor = (baseURL: string, timeout = 600_000) => new OpenAI({ baseURL, apiKey: "key-1", maxRetries: 0, timeout });
const question = { model: "m", messages: [{ role: "user", content: "2+2?" }] };

/** What the SDK's own request path rejects with for the same reply: the judge of "behaves as the SDK". */
async function sdkFailure(baseURL: string): Promise<unknown> {
  return sdkFor(baseURL)
    .chat.completions.create(question as never)
    .then(() => undefined, (error: unknown) => error);
}

describe("createChatCompletionsSender", () => {
  it("posts the JSON body to <base>/chat/completions with the headers the SDK itself sends", async () => {
    const received: Received[] = [];
    const baseUrl = await serve((response) => response.writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining-requests": "7" }).end('{"ok":1}'), received);
    const reply = await createChatCompletionsSender(sdkFor(baseUrl))(question);
    await sdkFor(baseUrl).chat.completions.create(question as never);
    const [ours, sdks] = received;
    expect(ours!.url).toBe("/v1/chat/completions");
    expect(JSON.parse(ours!.body)).toEqual(question);
    expect(reply.data).toEqual({ ok: 1 });
    expect(reply.headers.get("X-RateLimit-Remaining-Requests")).toBe("7");
    expect(reply.headers.get("retry-after")).toBeNull();
    for (const name of ["authorization", "user-agent", "content-type", "accept", "x-stainless-retry-count", "x-stainless-timeout", "x-stainless-package-version"]) {
      expect(ours!.headers[name], name).toBe(sdks!.headers[name]);
    }
    expect(ours!.headers.authorization).toBe("Bearer key-1");
  });

  it("reads a reply that is not JSON as text, and a 204 as null, as the SDK does", async () => {
    let status = 200;
    const baseUrl = await serve((response) => (status === 204 ? response.writeHead(204).end() : response.writeHead(200, { "content-type": "text/plain" }).end("plain words")));
    const send = createChatCompletionsSender(sdkFor(baseUrl));
    expect((await send(question)).data).toBe("plain words");
    status = 204;
    expect((await send(question)).data).toBeNull();
  });

  it.each([
    [400, { error: { message: "Unrecognized request argument supplied: return_token_ids", type: "invalid_request_error" } }],
    [404, { error: { message: "The model `m` does not exist" } }],
    [429, { error: { message: "Rate limit reached" } }],
    [503, "upstream unavailable"],
  ])("fails a %i with the SDK's own error class, message, body and headers", async (status, body) => {
    const baseUrl = await serve((response) => {
      response.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json", "retry-after": "2" });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    });
    const ours = await createChatCompletionsSender(sdkFor(baseUrl))(question).catch((error: unknown) => error);
    const theirs = (await sdkFailure(baseUrl)) as InstanceType<typeof OpenAI.APIError>;
    expect(ours).toBeInstanceOf(theirs.constructor);
    expect(ours).toMatchObject({ message: theirs.message, status: theirs.status, error: theirs.error });
    expect((ours as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("2");
  });

  it("fails a refused connection with the SDK's connection error, its cause naming the refusal", async () => {
    const baseUrl = await serve(() => undefined);
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const ours = await createChatCompletionsSender(sdkFor(baseUrl))(question).catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(ours).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(((ours as Error).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("fails a reply slower than the SDK's timeout with the SDK's timeout error", async () => {
    const baseUrl = await serve(() => undefined);
    const ours = await createChatCompletionsSender(sdkFor(baseUrl, 50))(question).catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it("fails with the SDK's abort error when the caller's signal aborts, before or during the request", async () => {
    const received: Received[] = [];
    const baseUrl = await serve(() => undefined, received);
    const send = createChatCompletionsSender(sdkFor(baseUrl));
    await expect(send(question, AbortSignal.abort())).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(received).toHaveLength(0);
    const controller = new AbortController();
    const pending = send(question, controller.signal);
    // Abort once the server holds the request, not after a fixed delay.
    while (received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
  });
});
