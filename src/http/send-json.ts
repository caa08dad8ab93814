/** Writing JSON replies and OpenAI-shaped error replies on a node:http response. */
import type { ServerResponse } from "node:http";
import { HttpError } from "./http-error.js";

/** Sends `body` as JSON with `status` and a content length. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

/** Sends `error` as an OpenAI-shaped body; once headers are out (a stream under way) it can only end the response. */
export function sendError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const failure = error instanceof HttpError ? error : new HttpError(500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
  // A refused body may still be arriving: close the connection after the reply instead of reading it.
  const headers: Record<string, string> = failure.status === 413 ? { connection: "close" } : {};
  sendJson(response, failure.status, failure.toBody(), headers);
}
