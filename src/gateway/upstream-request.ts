/**
 * Requests to the gateway's upstream over node:http(s) with keep-alive sockets. The reply is returned unread, so a
 * stream can be relayed chunk by chunk; node:http costs less main-thread time per call than the built-in fetch.
 */
import http from "node:http";
import https from "node:https";

/** The upstream could not be reached at all (refused, reset, DNS). */
export class UpstreamUnreachableError extends Error {
  constructor(
    readonly url: string,
    options: { cause: unknown },
  ) {
    super(`upstream ${url} unreachable: ${(options.cause as Error).message}`, options);
    this.name = "UpstreamUnreachableError";
  }
}

/** Sends requests upstream over shared keep-alive agents. */
export class UpstreamRequester {
  // Idle sockets close after 4 s, before the 5 s idle limit of Node's and uvicorn's servers (a reused closing socket resets).
  private readonly agents = { "http:": new http.Agent({ keepAlive: true, timeout: 4_000 }), "https:": new https.Agent({ keepAlive: true, timeout: 4_000 }) };

  /** Resolves with the reply's head once it arrives; its body is left for the caller to read. */
  send(url: string, options: { method: string; headers: Record<string, string>; body?: string }): Promise<http.IncomingMessage> {
    const target = new URL(url);
    const transport = target.protocol === "https:" ? https : http;
    const agent = this.agents[target.protocol === "https:" ? "https:" : "http:"];
    const headers = options.body === undefined ? options.headers : { ...options.headers, "content-length": String(Buffer.byteLength(options.body)) };
    return new Promise((resolve, reject) => {
      const request = transport.request(target, { method: options.method, headers, agent }, resolve);
      request.on("error", (error) => reject(new UpstreamUnreachableError(url, { cause: error })));
      request.end(options.body);
    });
  }

  /** Closes the kept-alive sockets. */
  close(): void {
    this.agents["http:"].destroy();
    this.agents["https:"].destroy();
  }
}

/** The whole reply body as text. */
export async function readReplyText(reply: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of reply) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
