/** The API-key check of the project's servers: the key a request carries against the one the server was started with. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

/**
 * Whether `given` equals `expected`, in a time that does not depend on where they first differ. Both are hashed first:
 * timingSafeEqual throws on inputs of different byte lengths, which a key of the right length in characters but not
 * in bytes (a non-ASCII header) reached as an HTTP 500.
 */
export function isSameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Refuses `request` with a 401 unless it carries `apiKey` as `Authorization: Bearer KEY` or `X-API-Key: KEY` (no key set: anything passes). */
export function checkApiKey(request: IncomingMessage, apiKey: string | undefined): void {
  if (apiKey === undefined) return;
  const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
  const given = bearer ?? (typeof request.headers["x-api-key"] === "string" ? request.headers["x-api-key"] : undefined);
  if (given === undefined || !isSameSecret(given, apiKey)) throw new HttpError(401, "missing or wrong API key (send Authorization: Bearer KEY or X-API-Key: KEY)");
}
