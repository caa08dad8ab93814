/** Starting a node:http server whose handler may throw HttpError, with GET /health answered before any route. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { allowedHosts, checkRequestOrigin } from "./check-request-origin.js";
import { sendError, sendJson } from "./send-json.js";

/** Handles one request; a thrown HttpError becomes its OpenAI-shaped reply, anything else a 500. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** A listening server. */
export interface RunningHttpServer {
  /** The origin, `http://HOST:PORT` (IPv6 hosts in brackets). */
  origin: string;
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (port 0 picks a free one) and resolves once it does. Every request passes the cross-site
 * guard first (`checkRequestOrigin`: its `Host` must be this server's address, and a browser's `Origin` this server).
 */
export async function startHttpServer(handler: RequestHandler, options: { host: string; port: number }): Promise<RunningHttpServer> {
  let hosts: Set<string> | undefined;
  const server = createServer((request, response) => {
    try {
      checkRequestOrigin(request, hosts);
    } catch (error) {
      request.resume();
      sendError(response, error);
      return;
    }
    // Health answers without touching the handler, so a load balancer sees the process, not the model.
    if (request.method === "GET" && (request.url === "/health" || request.url === "/v1/health")) {
      sendJson(response, 200, { status: "ok" });
      return;
    }
    handler(request, response).catch((error: unknown) => sendError(response, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(unavailablePort(error, options)));
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  hosts = allowedHosts(options.host);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    origin: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A port the user chose that cannot be had, as their mistake naming the option (`--port` on the command line): Node's
 * own `listen EADDRINUSE: address already in use` names neither the flag nor what to do.
 */
function unavailablePort(error: Error, options: { host: string; port: number }): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const port = optionName("port");
  if (code === "EADDRINUSE") {
    return new InputError(usageMessage`${port} ${options.port}: ${options.host}:${options.port} is already in use (another server is listening there); choose another ${port}, or 0 for any free one`);
  }
  if (code === "EACCES") {
    return new InputError(usageMessage`${port} ${options.port}: not allowed to listen on ${options.host}:${options.port} (ports below 1024 need privileges); choose a ${port} of 1024 or more`);
  }
  return error;
}

/** The request's path without query string or trailing slashes ("" for the root). */
export function requestPath(request: IncomingMessage): string {
  return (request.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
}
