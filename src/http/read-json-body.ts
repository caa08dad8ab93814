/** Reading a request body as JSON under a byte limit: too big is a 413, not JSON a 415 and bad JSON a 400, all OpenAI-shaped. */
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

/** Reads the whole body as text, refusing it with a 413 once it passes `maxBytes` (by its content-length or as it arrives). */
async function readBodyText(request: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = () => {
    // Drain what the client still sends, so it reads the 413 instead of a connection reset.
    request.resume();
    return new HttpError(413, `Request body over the limit of ${maxBytes} bytes`, "invalid_request_error");
  };
  if (Number(request.headers["content-length"] ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads the body and parses it as JSON; an empty body is `undefined`. A body sent as anything but `application/json`
 * is refused with a 415: a web page can POST `text/plain` to any address without a preflight, never JSON.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") return undefined;
  const mediaType = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new HttpError(415, `Request body must be sent as application/json, not ${mediaType === "" ? "without a content type" : mediaType}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Malformed JSON in request body");
  }
}
