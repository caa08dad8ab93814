/**
 * The model client's chat-completions POST, sent straight over the node:http transport rather than through the `openai`
 * SDK's request path, which cost about a quarter of the engine's main-thread time per call (headers rebuilt and log
 * details formatted on every request, an AbortController, a Headers and a Response object each). The SDK still supplies
 * what must match it: the headers it would send (built once, by the SDK itself) and its error classes, thrown in the
 * cases it throws them, so the client classifies and retries failures exactly as before.
 */
import OpenAI from "openai";
import { createNodeHttpTransport, replyHeader, toFetchHeaders, type BufferedReply } from "./node-http-transport.js";

/** Reads one reply header by name (case-insensitive), as the rate limiter and the retry policy read them. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A reply body as the SDK would have parsed it (JSON, text, or null for a 204), and the reply's headers. */
export interface ChatCompletionsReply {
  data: unknown;
  headers: HeaderReader;
}

/** Posts one chat-completions request body; rejects with the `openai` SDK's error classes. */
export type ChatCompletionsSender = (body: object, signal?: AbortSignal) => Promise<ChatCompletionsReply>;

/** Decodes as fetch does: UTF-8, a leading byte-order mark dropped. */
const utf8 = new TextDecoder();

/** A sender for `sdk`'s endpoint: its base URL, API key, timeout and headers, on keep-alive sockets of its own. */
export function createChatCompletionsSender(sdk: OpenAI): ChatCompletionsSender {
  const transport = createNodeHttpTransport();
  // The SDK's own request for this endpoint, built once: its URL, its timeout, and exactly the headers it sends
  // (Authorization, User-Agent, X-Stainless-*, OpenAI-Organization/-Project from the environment, content-type).
  let prepared: Promise<{ url: URL; headers: Record<string, string>; timeoutMs: number }> | undefined;
  const prepare = () =>
    (prepared ??= sdk.buildRequest({ method: "post", path: "/chat/completions", body: {} }).then(({ req, url, timeout }) => ({
      url: new URL(url),
      headers: Object.fromEntries(new Headers(req.headers as HeadersInit)),
      timeoutMs: timeout,
    })));

  return async (body, signal) => {
    if (signal?.aborted) throw new OpenAI.APIUserAbortError();
    const { url, headers, timeoutMs } = await prepare();
    let reply: BufferedReply;
    try {
      reply = await transport(url, { method: "POST", headers, body: JSON.stringify(body), timeoutMs, ...(signal ? { signal } : {}) });
    } catch (error) {
      throw connectionFailure(error, signal);
    }
    if (reply.status < 200 || reply.status >= 300) {
      const text = utf8.decode(reply.body);
      const json = parseJsonOrUndefined(text);
      throw OpenAI.APIError.generate(reply.status, json, json === undefined ? text : undefined, toFetchHeaders(reply));
    }
    return { data: parseBody(reply), headers: { get: (name) => replyHeader(reply, name) } };
  };
}

/** As the SDK sorts a failed fetch: an abort by the caller, a timeout (by name or by its words), or a connection error. */
function connectionFailure(error: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return new OpenAI.APIUserAbortError();
  const cause = error instanceof Error ? error.cause : undefined;
  const isTimeout = (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) || /timed? ?out/i.test(`${error}${cause ?? ""}`);
  if (isTimeout) return new OpenAI.APIConnectionTimeoutError();
  return new OpenAI.APIConnectionError({ cause: error instanceof Error ? error : new Error(String(error)) });
}

/** The body of a 2xx reply as the SDK parses a non-streamed one: JSON by content type, else text; a 204 is null. */
function parseBody(reply: BufferedReply): unknown {
  if (reply.status === 204) return null;
  const mediaType = replyHeader(reply, "content-type")?.split(";")[0]?.trim();
  const isJson = mediaType !== undefined && (mediaType.includes("application/json") || mediaType.endsWith("+json"));
  if (!isJson) return utf8.decode(reply.body);
  if (replyHeader(reply, "content-length") === "0") return undefined;
  return JSON.parse(utf8.decode(reply.body));
}

function parseJsonOrUndefined(text: string): object | undefined {
  try {
    return JSON.parse(text) as object;
  } catch {
    return undefined;
  }
}

