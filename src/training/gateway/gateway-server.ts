/**
 * The model gateway: an OpenAI-compatible proxy (node:http) in front of a vLLM-style server. Agents in any
 * language point their base URL at `/sessions/<id>/v1`; every chat call is forwarded with token capture on,
 * recorded under its session, and returned to the client without the server-only fields.
 */
import http from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { ChatMessageSchema } from "../../core/message.js";
import type { Step } from "../../core/step.js";
import { describeIssues } from "../../core/errors/input-error.js";
import { captureReply, stripServerFields } from "./capture-reply.js";
import { prepareUpstreamRequest, type RequestPolicy } from "./prepare-upstream-request.js";
import type { TraceRecord } from "./trace-record.js";
import { tracesToSteps } from "./traces-to-steps.js";

export interface GatewayOptions extends RequestPolicy {
  /** The upstream OpenAI base URL, e.g. http://127.0.0.1:8000/v1 ("/v1" is added when the URL has no path). */
  upstream: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Sent upstream as a bearer token; otherwise the client's Authorization header is forwarded. */
  apiKey?: string;
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
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_SESSION = "default";

const CreateSessionSchema = z.object({ session_id: z.string().min(1).optional() }).strict();

/** Starts the gateway; resolves once it listens. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const upstream = normalizeUpstream(options.upstream);
  let policy: RequestPolicy = { model: options.model, sampling: options.sampling };
  const sessions = new Map<string, TraceRecord[]>();
  const sessionTraces = (id: string) => {
    let traces = sessions.get(id);
    if (!traces) sessions.set(id, (traces = []));
    return traces;
  };

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://gateway");
    const pathname = url.pathname;
    const method = request.method ?? "GET";
    if (method === "GET" && pathname === "/health") return sendJson(response, 200, { status: "ok" });
    const sessionCall = SESSION_ROUTE.exec(pathname);
    if (sessionCall) return proxy(request, response, decodeURIComponent(sessionCall[1]!), sessionCall[2]!);
    if (pathname.startsWith("/v1/")) return proxy(request, response, DEFAULT_SESSION, pathname.slice(4));
    if (pathname === "/sessions" && method === "POST") {
      const parsed = CreateSessionSchema.safeParse(parseJson(await readBody(request)) ?? {});
      if (!parsed.success) return sendError(response, 400, describeIssues("request body", undefined, parsed.error));
      const id = parsed.data.session_id ?? randomUUID();
      sessionTraces(id);
      return sendJson(response, 201, { session_id: id, url: gatewaySessionUrl(id) });
    }
    if (pathname === "/sessions" && method === "GET") return sendJson(response, 200, { sessions: [...sessions.keys()] });
    const resource = SESSION_RESOURCE.exec(pathname);
    if (resource) {
      const id = decodeURIComponent(resource[1]!);
      if (method === "DELETE" && !resource[2]) {
        sessions.delete(id);
        return sendJson(response, 200, { deleted: id });
      }
      if (method === "GET" && resource[2] === "/traces") return sendJson(response, 200, { traces: sessions.get(id) ?? [] });
      if (method === "GET" && resource[2] === "/steps") return sendJson(response, 200, { steps: tracesToSteps(sessions.get(id) ?? []) });
    }
    return sendError(response, 404, `no route for ${method} ${pathname}`);
  }

  async function proxy(request: http.IncomingMessage, response: http.ServerResponse, sessionId: string, path: string): Promise<void> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    const authorization = options.apiKey ? `Bearer ${options.apiKey}` : request.headers.authorization;
    if (authorization) headers.authorization = authorization;
    if (request.method === "GET") {
      const upstreamResponse = await fetchUpstream(`${upstream}/${path}`, { headers });
      return relay(response, upstreamResponse.status, await upstreamResponse.text());
    }
    if (request.method !== "POST" || path !== "chat/completions") {
      return sendError(response, 404, `the gateway proxies POST /v1/chat/completions and GET /v1/*, not ${request.method} /v1/${path}`);
    }
    const clientBody = parseJson(await readBody(request));
    if (typeof clientBody !== "object" || clientBody === null || Array.isArray(clientBody)) {
      return sendError(response, 400, "request body: expected a JSON object");
    }
    const body = clientBody as Record<string, unknown>;
    if (body.stream === true) {
      return sendError(response, 400, "field \"stream\": the rllm gateway does not proxy streaming; send stream: false");
    }
    const messages = z.array(ChatMessageSchema).safeParse(body.messages);
    if (!messages.success) return sendError(response, 400, describeIssues("request body", undefined, messages.error).replaceAll('field "', 'field "messages.'));
    const prepared = prepareUpstreamRequest(body, policy);
    const started = performance.now();
    const upstreamResponse = await fetchUpstream(`${upstream}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify(prepared.body),
    });
    const text = await upstreamResponse.text();
    if (!upstreamResponse.ok) return relay(response, upstreamResponse.status, text);
    const reply = parseJson(text);
    let captured;
    try {
      captured = captureReply(reply);
    } catch (error) {
      return sendError(response, 502, `upstream reply is not a chat completion: ${(error as Error).message}`);
    }
    sessionTraces(sessionId).push({
      traceId: randomUUID(),
      sessionId,
      model: captured.model ?? String(prepared.body.model ?? ""),
      messages: messages.data,
      promptTokenIds: captured.promptTokenIds,
      choices: captured.choices,
      usage: captured.usage,
      weightVersion: captured.weightVersion,
      latencyMs: performance.now() - started,
      timestamp: Date.now(),
    });
    return sendJson(response, 200, stripServerFields(reply as Record<string, unknown>, prepared.addedLogprobs));
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof UpstreamUnreachableError) sendError(response, 502, error.message);
      else sendError(response, 500, error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const root = `http://${host}:${address.port}`;
  const gatewaySessionUrl = (id: string) => `${root}/sessions/${encodeURIComponent(id)}/v1`;

  return {
    url: root,
    sessionUrl: gatewaySessionUrl,
    traces: (id) => [...(sessions.get(id) ?? [])],
    steps: (id) => tracesToSteps(sessions.get(id) ?? []),
    deleteSession: (id) => void sessions.delete(id),
    setPolicy: (next) => {
      policy = { ...policy, ...next };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The upstream could not be reached at all (refused, reset, DNS). */
class UpstreamUnreachableError extends Error {}

async function fetchUpstream(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new UpstreamUnreachableError(`upstream ${url} unreachable: ${(error as Error).message}`);
  }
}

function normalizeUpstream(upstream: string): string {
  const url = new URL(upstream);
  const base = url.href.replace(/\/+$/, "");
  return url.pathname === "/" ? `${base}/v1` : base;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for("invalid-json");
  }
}

function relay(response: http.ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(text);
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

// OpenAI-shaped error bodies, so OpenAI SDKs surface the message.
function sendError(response: http.ServerResponse, status: number, message: string): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  sendJson(response, status, { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", code: status } });
}
