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
 * The host names (`Host` without its port) a server bound to `boundHost` answers to: every loopback spelling when
 * bound to loopback, the bound address itself otherwise; undefined for a wildcard bind (0.0.0.0, ::), which the
 * operator exposed on purpose under names this process cannot know. The port is not checked: DNS rebinding shows in
 * the name, while a port differs legitimately behind an SSH tunnel or a local proxy.
 */
export function allowedHosts(boundHost: string): Set<string> | undefined {
  const bare = boundHost.replace(/^\[|\]$/g, "");
  if (bare === "0.0.0.0" || bare === "::" || bare === "") return undefined;
  const isLoopback = bare === "localhost" || bare === "::1" || /^127\./.test(bare);
  const names = isLoopback ? [...loopbackHosts, ...(bare.startsWith("127.") ? [bare] : [])] : [bare.includes(":") ? `[${bare}]` : bare];
  return new Set(names.map((name) => name.toLowerCase()));
}

/** The name part of a `Host` header ("[::1]:8080" → "[::1]"), or undefined when it is not a host. */
function hostName(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Refuses (403) a request whose `Host` is not one this server answers to, or whose `Origin` (sent by browsers with
 * every cross-origin request and every POST) names another site. Clients that are not browsers send no `Origin`.
 */
export function checkRequestOrigin(request: IncomingMessage, hosts: Set<string> | undefined): void {
  const host = (request.headers.host ?? "").toLowerCase();
  const name = hostName(host);
  if (hosts !== undefined && (name === undefined || !hosts.has(name))) {
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
