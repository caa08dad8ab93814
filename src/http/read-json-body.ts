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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "Malformed JSON in request body");
  }
  if (nestingExceeds(text, maxNesting)) throw new HttpError(400, `Request body nested deeper than ${maxNesting} levels`);
  return value;
}

// Far deeper than any request these servers take (a tool's JSON schema nests a few dozen levels). JSON.parse takes
// any depth, but JSON.stringify and every walk of the value recurse: a field nested 200,000 deep in a body the gateway
// passes on overflowed its stack, a 500 for the client's own error (issue #44).
const maxNesting = 512;
const [openBrace, closeBrace, openBracket, closeBracket, quote, backslash] = ["{", "}", "[", "]", '"', "\\"].map((character) => character.charCodeAt(0));

/** Whether the arrays and objects of valid JSON `text` nest deeper than `limit` (one pass; strings skipped). */
function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === quote) {
      // Valid JSON: the string ends at the next quote that no backslash escapes.
      for (index += 1; text.charCodeAt(index) !== quote; index += 1) if (text.charCodeAt(index) === backslash) index += 1;
    } else if (code === openBrace || code === openBracket) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === closeBrace || code === closeBracket) depth -= 1;
  }
  return false;
}
