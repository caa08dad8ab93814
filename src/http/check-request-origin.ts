/**
 * The cross-site guard of every server rllm starts: a web page the operator visits must not reach it. A browser can
 * send a "simple" POST (text/plain, no preflight) to any address, and DNS rebinding makes a foreign name resolve to
 * 127.0.0.1; both show in the request's `Host` and `Origin` headers, which a page cannot forge.
 */
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

// Every spelling of the loopback host; a server bound to one answers to all of them.
const loopbackHosts = ["127.0.0.1", "localhost", "[::1]"];

/**
 * The `Host` values a server bound to `boundHost:port` answers to: every loopback spelling with the port (or none)
 * when bound to loopback, the bound address itself otherwise; undefined for a wildcard bind (0.0.0.0, ::), which
 * the operator exposed on purpose under names this process cannot know.
 */
export function allowedHosts(boundHost: string, port: number): Set<string> | undefined {
  const bare = boundHost.replace(/^\[|\]$/g, "");
  if (bare === "0.0.0.0" || bare === "::" || bare === "") return undefined;
  const isLoopback = bare === "localhost" || bare === "::1" || /^127\./.test(bare);
  const names = isLoopback ? [...loopbackHosts, ...(bare.startsWith("127.") ? [bare] : [])] : [bare.includes(":") ? `[${bare}]` : bare];
  return new Set(names.flatMap((name) => [name, `${name}:${port}`].map((host) => host.toLowerCase())));
}

/**
 * Refuses (403) a request whose `Host` is not one this server answers to, or whose `Origin` (sent by browsers with
 * every cross-origin request and every POST) names another site. Clients that are not browsers send no `Origin`.
 */
export function checkRequestOrigin(request: IncomingMessage, hosts: Set<string> | undefined): void {
  const host = (request.headers.host ?? "").toLowerCase();
  if (hosts !== undefined && !hosts.has(host)) {
    throw new HttpError(403, `Host "${request.headers.host ?? ""}" is not this server's address; it answers to ${[...hosts].join(", ")}`);
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    originHost = undefined;
  }
  // A same-origin page (served by this server) has the Host as its origin; anything else is a foreign site.
  if (originHost === undefined || originHost !== host) {
    throw new HttpError(403, `cross-origin requests are refused: Origin "${origin}" is not this server (${request.headers.host ?? ""})`);
  }
}
