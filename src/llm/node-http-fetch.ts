/**
 * A `fetch` for the `openai` SDK built on node:http(s) with keep-alive sockets. Node's built-in fetch (undici)
 * costs nearly twice the main-thread time of http.request per request (web streams: a tee of every request
 * body, a stream per reply); at 64 episodes in flight that made the HTTP layer the engine's bottleneck, so
 * string-bodied requests go through plain http.request instead, following redirects as fetch does. Anything
 * else (uploads, streamed bodies, other redirect modes) goes to the built-in fetch.
 */
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/** Statuses whose Response must have no body (the Response constructor throws otherwise). */
const nullBodyStatuses = new Set([101, 204, 205, 304]);
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** How long a kept-alive socket may sit idle before the agent closes it (it closes only idle sockets on this timer). */
const idleSocketMs = 4_000;
/** fetch's limit on redirects in a row. */
const maxRedirects = 20;

type Agents = Record<"http:" | "https:", http.Agent>;

/** A fetch that sends string bodies over keep-alive node:http(s) sockets and buffers the reply. */
export function createNodeHttpFetch(): typeof fetch {
  // One agent pair per client: sockets are reused across requests and idle ones do not keep the process alive.
  // An idle socket is closed after 4 s (or sooner when the server's Keep-Alive header asks), before the 5 s idle
  // limit of Node's and uvicorn's servers: reusing a socket the server is closing fails with a reset.
  const options = { keepAlive: true, timeout: idleSocketMs };
  const agents: Agents = { "http:": new http.Agent(options), "https:": new https.Agent(options) };
  return async (input, init) => {
    const body = init?.body ?? undefined;
    const isPlain = !(input instanceof Request) && (body === undefined || typeof body === "string") && (init?.redirect ?? "follow") === "follow";
    let url = new URL(input instanceof Request ? input.url : String(input));
    if (!isPlain || !isHttp(url)) return fetch(input, init);
    const headers: Record<string, string> = Object.fromEntries(init?.headers instanceof Headers ? init.headers : new Headers(init?.headers));
    let method = (init?.method ?? "GET").toUpperCase();
    let payload = body as string | undefined;
    for (let redirects = 0; ; redirects++) {
      const response = await send(url, method, headers, payload, init?.signal ?? undefined, agents);
      const location = response.headers.get("location");
      if (!redirectStatuses.has(response.status) || location === null) return response;
      if (redirects === maxRedirects) throw new TypeError(`fetch failed: more than ${maxRedirects} redirects from ${String(input)}`);
      const next = new URL(location, url);
      if (!isHttp(next)) throw new TypeError(`fetch failed: redirect to unsupported URL ${next.href}`);
      // As fetch does: credentials stay on their origin, and 301/302 after POST (303 after anything) become a bodiless GET.
      if (next.origin !== url.origin) delete headers.authorization;
      if (response.status === 303 ? method !== "HEAD" : (response.status === 301 || response.status === 302) && method === "POST") {
        method = "GET";
        payload = undefined;
        delete headers["content-type"];
      }
      url = next;
    }
  };
}

function isHttp(url: URL): boolean {
  return url.protocol === "http:" || url.protocol === "https:";
}

/** One request and its whole reply; rejects on a connection error, a close mid-reply or an abort. */
function send(url: URL, method: string, headers: Record<string, string>, payload: string | undefined, signal: AbortSignal | undefined, agents: Agents): Promise<Response> {
  const sized = payload === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(payload)) };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(url, { method, headers: sized, agent: agents[url.protocol as keyof Agents], signal });
    request.on("error", reject);
    request.on("response", (reply) => {
      const chunks: Buffer[] = [];
      reply.on("data", (chunk: Buffer) => chunks.push(chunk));
      reply.on("error", reject);
      // A socket closed mid-reply (or an abort) ends without "end": settle the promise either way.
      reply.on("close", () => {
        if (!reply.complete) reject(signal?.aborted ? abortError(signal) : new Error(`connection to ${url.host} closed mid-reply`));
      });
      reply.on("end", () => {
        try {
          resolve(toResponse(reply, Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.end(payload);
  });
}

function toResponse(reply: http.IncomingMessage, raw: Buffer): Response {
  const headers = new Headers();
  for (let index = 0; index < reply.rawHeaders.length; index += 2) headers.append(reply.rawHeaders[index]!, reply.rawHeaders[index + 1]!);
  const status = reply.statusCode ?? 0;
  const body = nullBodyStatuses.has(status) ? Buffer.alloc(0) : decode(raw, reply.headers["content-encoding"]);
  return new BufferedResponse(body, { status, statusText: reply.statusMessage, headers });
}

/** Decodes as fetch does: UTF-8, a leading byte-order mark dropped. */
const utf8 = new TextDecoder();

/**
 * A Response whose body is already in memory: text(), json(), arrayBuffer() and blob() read the bytes
 * directly. A standard Response wraps them in a web stream and reads that back, which costs about ten
 * times the JSON parse of a short reply. Its `body` stream is null: the SDK reads replies that are not
 * streamed through json() and text() only, and we never ask it to stream.
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

/** We send no Accept-Encoding, but a proxy may compress anyway: undo what the built-in fetch would undo. */
function decode(raw: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(raw);
    case "deflate":
      return zlib.inflateSync(raw);
    case "br":
      return zlib.brotliDecompressSync(raw);
    default:
      return raw;
  }
}

/** An error the SDK recognises as an abort (it checks the name), carrying the signal's reason. */
function abortError(signal: AbortSignal): Error {
  const error = new Error("the request was aborted", { cause: signal.reason });
  error.name = "AbortError";
  return error;
}
