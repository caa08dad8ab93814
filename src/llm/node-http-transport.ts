/**
 * HTTP requests over keep-alive node:http(s) sockets with the whole reply buffered: the transport under the model
 * client's chat calls and the `fetch` of node-http-fetch.ts. Node's built-in fetch (undici) costs nearly twice the
 * main-thread time of http.request per request (web streams: a tee of every request body, a stream per reply); at 64
 * episodes in flight that made the HTTP layer the engine's bottleneck. Redirects are followed as fetch follows them.
 */
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/** How long a kept-alive socket may sit idle before the agent closes it (it closes only idle sockets on this timer). */
const idleSocketMs = 4_000;
/** fetch's limit on redirects in a row. */
const maxRedirects = 20;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Statuses whose reply has no body, whatever the server sent. */
const nullBodyStatuses = new Set([101, 204, 205, 304]);

/** One request: a string body (or none) and plain lower- or mixed-case headers. */
export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Time for the whole exchange, redirects included; past it the request fails with a TimeoutError. */
  timeoutMs?: number;
}

/** A whole reply: its headers as they came and the decoded body bytes. */
export interface BufferedReply {
  status: number;
  statusText: string;
  /**
   * Names and values in arrival order, alternating, as node gives them; read with `replyHeader`. Node's parsed
   * `headers` object is never built: building it is a cost per request the caller rarely needs.
   */
  rawHeaders: string[];
  body: Buffer;
}

/** Sends a request, follows redirects, and resolves with the buffered reply; rejects on connection trouble or abort. */
export type NodeHttpTransport = (url: URL, request: TransportRequest) => Promise<BufferedReply>;

/** Whether `url` can go through the transport (http: or https:). */
export function isHttpUrl(url: URL): boolean {
  return url.protocol === "http:" || url.protocol === "https:";
}

/** A transport with its own keep-alive agents (one per client: sockets are reused across its requests). */
export function createNodeHttpTransport(): NodeHttpTransport {
  // Idle sockets do not keep the process alive. One is closed after 4 s (or sooner when the server's Keep-Alive header
  // asks), before the 5 s idle limit of Node's and uvicorn's servers: reusing a socket the server is closing fails with a reset.
  const options = { keepAlive: true, timeout: idleSocketMs };
  const agents = { "http:": new http.Agent(options), "https:": new https.Agent(options) };
  return async (start, request) => {
    let url = start;
    let { method, body } = request;
    // The caller's headers, copied only when a redirect must change them.
    let headers = request.headers;
    const deadline = request.timeoutMs === undefined ? undefined : performance.now() + request.timeoutMs;
    for (let redirects = 0; ; redirects++) {
      const exchange = { method, headers, body, signal: request.signal, deadline };
      const reply = await send(url, exchange, url.protocol === "https:" ? agents["https:"] : agents["http:"]);
      const location = redirectStatuses.has(reply.status) ? replyHeader(reply, "location") : null;
      if (location === null) return reply;
      if (redirects === maxRedirects) throw new TypeError(`fetch failed: more than ${maxRedirects} redirects from ${start.href}`);
      const next = new URL(location, url);
      if (!isHttpUrl(next)) throw new TypeError(`fetch failed: redirect to unsupported URL ${next.href}`);
      // As fetch does: credentials stay on their origin, and 301/302 after POST (303 after anything) become a bodiless GET.
      if (next.origin !== url.origin) headers = withoutHeader(headers, "authorization");
      if (reply.status === 303 ? method !== "HEAD" : (reply.status === 301 || reply.status === 302) && method === "POST") {
        method = "GET";
        body = undefined;
        headers = withoutHeader(headers, "content-type");
      }
      url = next;
    }
  };
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

interface Exchange {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  /** performance.now() time by which the reply must be complete. */
  deadline: number | undefined;
}

/** One request and its whole reply; rejects on a connection error, a close mid-reply, an abort or the deadline. */
function send(url: URL, { method, headers, body: payload, signal, deadline }: Exchange, agent: http.Agent): Promise<BufferedReply> {
  const sized = payload === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(payload)) };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<BufferedReply>((resolveOnce, rejectOnce) => {
    if (signal?.aborted) return rejectOnce(abortError(signal));
    // The signal is watched here rather than given to http.request, whose abort support ties a stream-end watcher to
    // every request (a third of the request's main-thread time). Destroying the request ends it as an abort would, and
    // one timer does the deadline: no AbortController per request.
    const request = transport.request(url, { method, headers: sized, agent });
    const stop = (error: Error) => {
      // Settled before the destroy, so this error (not the close the destroy causes) is what the caller sees.
      reject(error);
      request.destroy(error);
    };
    const onAbort = () => stop(abortError(signal!));
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = deadline === undefined ? undefined : setTimeout(() => stop(timeoutError(url)), Math.max(0, deadline - performance.now()));
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    function resolve(reply: BufferedReply): void {
      settle();
      resolveOnce(reply);
    }
    function reject(error: Error): void {
      settle();
      rejectOnce(error);
    }
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
          const status = reply.statusCode ?? 0;
          const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          const rawHeaders = reply.rawHeaders;
          const body = nullBodyStatuses.has(status) ? Buffer.alloc(0) : decode(raw, replyHeader({ rawHeaders }, "content-encoding"));
          resolve({ status, statusText: reply.statusMessage ?? "", rawHeaders, body });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.end(payload);
  });
}

/** A reply header as fetch's Headers.get reads it: every value under `name` (any case) joined by ", ", or null. */
export function replyHeader(reply: Pick<BufferedReply, "rawHeaders">, name: string): string | null {
  const wanted = name.toLowerCase();
  let value: string | null = null;
  for (let index = 0; index < reply.rawHeaders.length; index += 2) {
    const candidate = reply.rawHeaders[index]!;
    // The length test first spares a lower-cased copy of most names.
    if (candidate.length === wanted.length && candidate.toLowerCase() === wanted) {
      value = value === null ? reply.rawHeaders[index + 1]! : `${value}, ${reply.rawHeaders[index + 1]!}`;
    }
  }
  return value;
}

/** A reply's headers as a fetch Headers object, in arrival order. */
export function toFetchHeaders(reply: Pick<BufferedReply, "rawHeaders">): Headers {
  const headers = new Headers();
  for (let index = 0; index < reply.rawHeaders.length; index += 2) headers.append(reply.rawHeaders[index]!, reply.rawHeaders[index + 1]!);
  return headers;
}

/** We send no Accept-Encoding, but a proxy may compress anyway: undo what the built-in fetch would undo. */
function decode(raw: Buffer, encoding: string | null): Buffer {
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

/** The error a request past its deadline fails with (named as AbortSignal.timeout names its reason). */
function timeoutError(url: URL): Error {
  const error = new Error(`no complete reply from ${url.host} in time`);
  error.name = "TimeoutError";
  return error;
}

/** An error the `openai` SDK (and our client) recognise as an abort (they check the name), carrying the signal's reason. */
function abortError(signal: AbortSignal): Error {
  const error = new Error("the request was aborted", { cause: signal.reason });
  error.name = "AbortError";
  return error;
}
