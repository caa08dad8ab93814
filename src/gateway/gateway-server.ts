/**
 * The model gateway: an OpenAI-compatible proxy (node:http) in front of a vLLM-style server. Agents in any language
 * point their base URL at `/sessions/<id>/v1`; every chat or text completion, streamed or not, is forwarded with token
 * capture on, recorded under its session (capped in memory, appended to a trace file when one is given), and
 * returned to the client without the server-only fields.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ChatMessageSchema } from "../core/message.js";
import type { Step } from "../core/step.js";
import { decodePathSegment } from "../http/decode-path-segment.js";
import { HttpError } from "../http/http-error.js";
import { parseRequest } from "../http/parse-request.js";
import { readJsonBody } from "../http/read-json-body.js";
import { sendJson } from "../http/send-json.js";
import { startHttpServer } from "../http/start-http-server.js";
import { captureReply, stripServerFields, type CapturedReply } from "./capture-reply.js";
import { prepareUpstreamRequest, type RequestPolicy } from "./prepare-upstream-request.js";
import { relayEventStream } from "./relay-event-stream.js";
import { StreamCapture } from "./stream-capture.js";
import type { TraceRecord, TracedEndpoint } from "./trace-record.js";
import { TraceStore } from "./trace-store.js";
import { tracesToSteps } from "./traces-to-steps.js";
import { readReplyText, UpstreamRequester, UpstreamUnreachableError } from "./upstream-request.js";

export interface GatewayOptions extends RequestPolicy {
  /** The upstream OpenAI base URL, e.g. http://127.0.0.1:8000/v1 ("/v1" is added when the URL has no path). */
  upstream: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Sent upstream as a bearer token; otherwise the client's Authorization header is forwarded. */
  apiKey?: string;
  /** Most traces kept in memory across sessions; the oldest are evicted first (default 10,000). */
  maxTracesInMemory?: number;
  /** Append-only JSONL file of every trace; evicted traces are read back from it. None: memory only. */
  traceFile?: string;
}

/** A running gateway. */
export interface Gateway {
  /** Root URL, e.g. http://127.0.0.1:9090 */
  url: string;
  /** The OpenAI base URL an agent uses to be traced under `sessionId`. */
  sessionUrl(sessionId: string): string;
  traces(sessionId: string): TraceRecord[];
  /** The session's calls as Steps with token ids and logprobs. */
  steps(sessionId: string): Step[];
  deleteSession(sessionId: string): void;
  /** Changes the pinned model or sampling parameters for later calls (e.g. after a policy update). */
  setPolicy(policy: RequestPolicy): void;
  close(): Promise<void>;
}

// Session ids may contain "/", so the id is everything up to the first "/v1/" (non-greedy, as rLLM's gateway).
const SESSION_ROUTE = /^\/sessions\/(.+?)\/v1\/(.+)$/;
const SESSION_RESOURCE = /^\/sessions\/(.+?)(\/traces|\/steps)?$/;
/** Largest request body in bytes; bigger ones get a 413. */
export const GATEWAY_MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_SESSION = "default";

const CreateSessionSchema = z.object({ session_id: z.string().min(1).optional() }).strict();
const CompletionPromptSchema = z.union([z.string(), z.array(z.number().int()), z.array(z.string()).length(1), z.array(z.array(z.number().int())).length(1)]);

/** Starts the gateway; resolves once it listens. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const upstream = normalizeUpstream(options.upstream);
  let policy: RequestPolicy = { model: options.model, sampling: options.sampling };
  const store = new TraceStore({ maxInMemory: options.maxTracesInMemory, file: options.traceFile });
  const requester = new UpstreamRequester();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const pathname = new URL(request.url ?? "/", "http://gateway").pathname;
    const method = request.method ?? "GET";
    const sessionCall = SESSION_ROUTE.exec(pathname);
    if (sessionCall) return proxy(request, response, decodePathSegment(sessionCall[1]!, "the session id"), sessionCall[2]!);
    if (pathname.startsWith("/v1/")) return proxy(request, response, DEFAULT_SESSION, pathname.slice(4));
    if (pathname === "/sessions" && method === "POST") {
      const { session_id: requested } = parseRequest(CreateSessionSchema, (await readJsonBody(request, GATEWAY_MAX_BODY_BYTES)) ?? {});
      const id = requested ?? randomUUID();
      store.open(id);
      return sendJson(response, 201, { session_id: id, url: gatewaySessionUrl(id) });
    }
    if (pathname === "/sessions" && method === "GET") return sendJson(response, 200, { sessions: store.sessionIds() });
    const resource = SESSION_RESOURCE.exec(pathname);
    if (resource) {
      const id = decodePathSegment(resource[1]!, "the session id");
      if (method === "DELETE" && !resource[2]) {
        store.delete(id);
        return sendJson(response, 200, { deleted: id });
      }
      if (method === "GET" && resource[2] === "/traces") return sendJson(response, 200, { traces: store.traces(id) });
      if (method === "GET" && resource[2] === "/steps") return sendJson(response, 200, { steps: tracesToSteps(store.traces(id)) });
    }
    throw new HttpError(404, `no route for ${method} ${pathname}`);
  }

  function upstreamHeaders(request: IncomingMessage): Record<string, string> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    const authorization = options.apiKey ? `Bearer ${options.apiKey}` : request.headers.authorization;
    if (authorization) headers.authorization = authorization;
    return headers;
  }

  async function proxy(request: IncomingMessage, response: ServerResponse, sessionId: string, path: string): Promise<void> {
    if (request.method === "GET") {
      const reply = await requester.send(`${upstream}/${path}`, { method: "GET", headers: upstreamHeaders(request) });
      return relay(response, reply.statusCode ?? 502, await readReplyText(reply));
    }
    if (request.method !== "POST" || (path !== "chat/completions" && path !== "completions")) {
      throw new HttpError(404, `the gateway proxies POST /v1/chat/completions, POST /v1/completions and GET /v1/*, not ${request.method} /v1/${path}`);
    }
    const clientBody = await readJsonBody(request, GATEWAY_MAX_BODY_BYTES);
    if (typeof clientBody !== "object" || clientBody === null || Array.isArray(clientBody)) throw new HttpError(400, "request body: expected a JSON object");
    const body = clientBody as Record<string, unknown>;
    const endpoint: TracedEndpoint = path;
    const messages = endpoint === "chat/completions" ? parseRequest(z.object({ messages: z.array(ChatMessageSchema) }), body).messages : [];
    const prompt = endpoint === "completions" ? parseRequest(z.object({ prompt: CompletionPromptSchema }), body).prompt : undefined;
    const prepared = prepareUpstreamRequest(body, policy, endpoint);
    const started = performance.now();
    const reply = await requester.send(`${upstream}/${endpoint}`, { method: "POST", headers: upstreamHeaders(request), body: JSON.stringify(prepared.body) });
    const record = (captured: CapturedReply, streamed: boolean) =>
      store.add({
        traceId: randomUUID(),
        sessionId,
        endpoint,
        model: captured.model ?? String(prepared.body.model ?? ""),
        messages,
        ...(prompt !== undefined ? { prompt: flattenPrompt(prompt) } : {}),
        promptTokenIds: captured.promptTokenIds,
        choices: captured.choices,
        usage: captured.usage,
        weightVersion: captured.weightVersion,
        streamed,
        latencyMs: performance.now() - started,
        timestamp: Date.now(),
      });
    const isStream = (reply.headers["content-type"] ?? "").startsWith("text/event-stream");
    if (reply.statusCode === 200 && isStream) {
      const capture = new StreamCapture(endpoint);
      await relayEventStream(reply, response, (chunk) => {
        capture.add(chunk);
        return stripServerFields(chunk, prepared.addedLogprobs);
      });
      record(capture.result(), true);
      return;
    }
    const text = await readReplyText(reply);
    if (reply.statusCode !== 200) return relay(response, reply.statusCode ?? 502, text);
    const json = parseJson(text);
    let captured: CapturedReply;
    try {
      captured = captureReply(json, endpoint);
    } catch (error) {
      throw new HttpError(502, `upstream reply is not a ${endpoint === "completions" ? "text" : "chat"} completion: ${(error as Error).message}`);
    }
    record(captured, false);
    return sendJson(response, 200, stripServerFields(json as Record<string, unknown>, prepared.addedLogprobs));
  }

  const server = await startHttpServer(
    (request, response) =>
      handle(request, response).catch((error: unknown) => {
        throw error instanceof UpstreamUnreachableError ? new HttpError(502, error.message) : error;
      }),
    { host: options.host ?? "127.0.0.1", port: options.port ?? 0 },
  );
  const gatewaySessionUrl = (id: string) => `${server.origin}/sessions/${encodeURIComponent(id)}/v1`;

  return {
    url: server.origin,
    sessionUrl: gatewaySessionUrl,
    traces: (id) => store.traces(id),
    steps: (id) => tracesToSteps(store.traces(id)),
    deleteSession: (id) => store.delete(id),
    setPolicy: (next) => {
      policy = { ...policy, ...next };
    },
    close: async () => {
      await server.close();
      requester.close();
      store.close();
    },
  };
}

function normalizeUpstream(upstream: string): string {
  const url = new URL(upstream);
  const base = url.href.replace(/\/+$/, "");
  return url.pathname === "/" ? `${base}/v1` : base;
}

// A one-element list prompt is the same call as its element.
function flattenPrompt(prompt: z.infer<typeof CompletionPromptSchema>): string | number[] {
  if (typeof prompt === "string") return prompt;
  const first = prompt[0];
  return typeof first === "string" || Array.isArray(first) ? first : (prompt as number[]);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function relay(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(text);
}
