/** Decoding a percent-encoded part of a request's path, where a malformed escape is the client's error. */
import { HttpError } from "./http-error.js";

/** `segment` percent-decoded; a malformed escape (`%ZZ`, a cut UTF-8 sequence) is a 400 naming `what`, not a 500. */
export function decodePathSegment(segment: string, what: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `${what} in the path is not valid percent-encoding: ${JSON.stringify(segment.slice(0, 200))}`);
  }
}
