/**
 * A `fetch` on the node:http(s) transport (node-http-transport.ts) for string-bodied requests: about half the
 * main-thread time of the built-in fetch per request. Anything else (uploads, streamed bodies, other redirect modes,
 * other schemes) goes to the built-in fetch.
 */
import { createNodeHttpTransport, isHttpUrl, toFetchHeaders, type BufferedReply } from "./node-http-transport.js";

/** A fetch that sends string bodies over keep-alive node:http(s) sockets and buffers the reply. */
export function createNodeHttpFetch(): typeof fetch {
  const transport = createNodeHttpTransport();
  return async (input, init) => {
    const body = init?.body ?? undefined;
    const isPlain = !(input instanceof Request) && (body === undefined || typeof body === "string") && (init?.redirect ?? "follow") === "follow";
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!isPlain || !isHttpUrl(url)) return fetch(input, init);
    const headers: Record<string, string> = Object.fromEntries(init?.headers instanceof Headers ? init.headers : new Headers(init?.headers));
    const method = (init?.method ?? "GET").toUpperCase();
    const reply = await transport(url, { method, headers, ...(body === undefined ? {} : { body }), ...(init?.signal ? { signal: init.signal } : {}) });
    return toResponse(reply);
  };
}

function toResponse(reply: BufferedReply): Response {
  return new BufferedResponse(reply.body, { status: reply.status, statusText: reply.statusText, headers: toFetchHeaders(reply) });
}

/** Decodes as fetch does: UTF-8, a leading byte-order mark dropped. */
const utf8 = new TextDecoder();

/**
 * A Response whose body is already in memory: text(), json(), arrayBuffer() and blob() read the bytes
 * directly. A standard Response wraps them in a web stream and reads that back, which costs about ten
 * times the JSON parse of a short reply. Its `body` stream is null: callers read replies through json() and text().
 */
class BufferedResponse extends Response {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }
  override async text(): Promise<string> {
    return utf8.decode(this.#bytes);
  }
  override async json(): Promise<unknown> {
    return JSON.parse(utf8.decode(this.#bytes));
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.#bytes).buffer;
  }
  override async blob(): Promise<Blob> {
    return new Blob([new Uint8Array(this.#bytes)], { type: this.headers.get("content-type") ?? "" });
  }
  override clone(): Response {
    return new BufferedResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}
