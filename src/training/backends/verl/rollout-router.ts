/**
 * The rollout router: one OpenAI-compatible URL in front of verl's vLLM/SGLang servers (`server_addresses`). Each
 * request goes to the server with the fewest requests in flight; a server that refuses or answers 503 (asleep or
 * syncing weights) is retried, on every server in turn, until `pauseToleranceMs` has passed, because verl pauses its
 * rollout servers during updates and weight sync. The run's gateway sits in front of it and asks for token ids and
 * logprobs on every call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../../../http/http-error.js";
import { startHttpServer } from "../../../http/start-http-server.js";
import { readReplyText, UpstreamRequester, UpstreamUnreachableError } from "../../../gateway/upstream-request.js";

export interface RolloutRouterOptions {
  /** "host:port" or full "http://host:port" of each rollout server. */
  serverAddresses: readonly string[];
  /** How long a request keeps retrying while every server is paused (default 10 minutes). */
  pauseToleranceMs?: number;
  /** Wait between retries (default 1 s). */
  retryDelayMs?: number;
  /**
   * The policy version the servers hold now: a JSON reply without vLLM's weight_version gets it, so every rollout call
   * is stamped with the version that answered it (verl syncs new weights into the same servers between updates).
   */
  version?: () => number;
  host?: string;
}

/** A running router. */
export interface RolloutRouter {
  /** Its OpenAI base URL, `http://HOST:PORT/v1`. */
  baseUrl: string;
  /** Routes later requests to these servers (a restarted verl job brings new ones). */
  setServers(serverAddresses: readonly string[]): void;
  /** Requests each server has answered, by address. */
  served(): Record<string, number>;
  /** Rollout requests under way on all servers now. */
  inFlight(): number;
  close(): Promise<void>;
}

/** Largest request body forwarded (the gateway's own limit). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Starts the router; resolves once it listens. */
export async function startRolloutRouter(options: RolloutRouterOptions): Promise<RolloutRouter> {
  const toServer = (address: string) => ({
    origin: /^https?:\/\//.test(address) ? address.replace(/\/+$/, "") : `http://${address}`,
    inFlight: 0,
    served: 0,
  });
  let servers = options.serverAddresses.map(toServer);
  const tolerance = options.pauseToleranceMs ?? 600_000;
  const retryDelay = options.retryDelayMs ?? 1000;
  const requester = new UpstreamRequester();

  async function readBody(request: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const method = request.method ?? "GET";
    const headers: Record<string, string> = { "content-type": request.headers["content-type"] ?? "application/json" };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    const deadline = Date.now() + tolerance;
    let lastFailure = "";
    for (let attempt = 0; ; attempt++) {
      // Least requests in flight first; ties go round the servers as attempts advance.
      const ordered = [...servers].sort((left, right) => left.inFlight - right.inFlight);
      const server = ordered[attempt % ordered.length]!;
      server.inFlight += 1;
      try {
        const reply = await requester.send(server.origin + (request.url ?? "/"), { method, headers, ...(body.length > 0 ? { body: body.toString("utf8") } : {}) });
        if (reply.statusCode === 503) {
          lastFailure = `${server.origin} answered 503: ${(await readReplyText(reply)).slice(0, 200)}`;
        } else {
          server.served += 1;
          const contentType = reply.headers["content-type"] ?? "application/json";
          response.writeHead(reply.statusCode ?? 502, { "content-type": contentType });
          if (options.version && reply.statusCode === 200 && contentType.startsWith("application/json")) {
            response.end(withWeightVersion(await readReplyText(reply), options.version()));
            return;
          }
          for await (const chunk of reply) response.write(chunk);
          response.end();
          return;
        }
      } catch (error) {
        if (!(error instanceof UpstreamUnreachableError)) throw error;
        lastFailure = error.message;
      } finally {
        server.inFlight -= 1;
      }
      if (Date.now() >= deadline) throw new HttpError(503, `every verl rollout server stayed unavailable for ${tolerance / 1000} s; last: ${lastFailure}`);
      // Sleep only after a full round over the servers failed.
      if ((attempt + 1) % servers.length === 0) await new Promise((resolve) => setTimeout(resolve, retryDelay));
    }
  }

  const server = await startHttpServer(handle, { host: options.host ?? "127.0.0.1", port: 0 });
  return {
    baseUrl: `${server.origin}/v1`,
    setServers(serverAddresses) {
      servers = serverAddresses.map(toServer);
    },
    served: () => Object.fromEntries(servers.map((entry) => [entry.origin, entry.served])),
    inFlight: () => servers.reduce((sum, entry) => sum + entry.inFlight, 0),
    async close() {
      requester.close();
      await server.close();
    },
  };
}

// The reply with `weight_version` added unless the server set one (text that is not a JSON object passes unchanged).
function withWeightVersion(text: string, version: number): string {
  try {
    const reply = JSON.parse(text) as unknown;
    if (typeof reply !== "object" || reply === null || Array.isArray(reply) || "weight_version" in reply) return text;
    return JSON.stringify({ ...reply, weight_version: version });
  } catch {
    return text;
  }
}
