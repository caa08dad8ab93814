/**
 * Decompresses a `content-encoding: zstd` request body under a size cap, without ever allocating past it: the frame
 * header's declared content size (RFC 8878 §3.1.1.1) is read and checked first, and the codec gets a buffer of exactly
 * that size, so a frame that would inflate further fails instead of growing. The Tinker SDK (python-zstandard's
 * one-shot `ZstdCompressor().compress`) and this project's client (the codec's one-shot `compress`) always declare it;
 * a frame that does not is refused. Every failure is the client's: an HttpError 400 (413 past the cap) with the reason.
 */
import { HttpError } from "../http/http-error.js";
import { loadZstd } from "../llm/tinker/tinker-http-client.js";

const frameMagic = 0xfd2fb528;

/** The decompressed body, at most `limit` bytes. */
export async function decompressZstdBody(body: Uint8Array, limit: number): Promise<Uint8Array> {
  const declared = declaredContentSize(body);
  // The codec reads a declared 0 as "unknown" and guesses a buffer of 20× the body; no request is empty anyway.
  if (declared === 0n) throw new HttpError(400, "the zstd frame declares an empty body", "invalid_request_error");
  if (declared > BigInt(limit)) {
    throw new HttpError(413, `zstd body declares ${declared} bytes decompressed; the limit is ${limit} (--max-chunk-bytes)`, "invalid_request_error");
  }
  const codec = await loadZstd();
  let decompressed: Uint8Array;
  try {
    // The codec sizes its output buffer from the header we just checked.
    decompressed = codec.decompress(body);
  } catch (error) {
    throw new HttpError(400, `zstd body does not decompress: ${(error as Error).message}`, "invalid_request_error");
  }
  if (BigInt(decompressed.byteLength) !== declared) {
    throw new HttpError(400, `zstd body decompressed to ${decompressed.byteLength} bytes, not the ${declared} its header declares`, "invalid_request_error");
  }
  return decompressed;
}

/** The content size a frame's header declares; a 400 when the body is not a zstd frame or declares none. */
function declaredContentSize(body: Uint8Array): bigint {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (body.byteLength < 5 || view.getUint32(0, true) !== frameMagic) throw new HttpError(400, "content-encoding zstd, but the body is not a zstd frame", "invalid_request_error");
  const descriptor = body[4]!;
  const contentSizeFlag = descriptor >> 6;
  const isSingleSegment = (descriptor & 0x20) !== 0;
  const dictionaryIdBytes = [0, 1, 2, 4][descriptor & 0x03]!;
  const contentSizeBytes = [isSingleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag]!;
  if (contentSizeBytes === 0) {
    throw new HttpError(400, "the zstd frame does not declare its content size, which bounds decompression here (one-shot compressors write it)", "invalid_request_error");
  }
  const offset = 5 + (isSingleSegment ? 0 : 1) + dictionaryIdBytes;
  if (body.byteLength < offset + contentSizeBytes) throw new HttpError(400, "the zstd frame header is cut short", "invalid_request_error");
  let size = 0n;
  for (let index = contentSizeBytes - 1; index >= 0; index -= 1) size = (size << 8n) | BigInt(body[offset + index]!);
  // The 2-byte field stores the size minus 256 (RFC 8878 §3.1.1.1.4).
  return contentSizeFlag === 1 ? size + 256n : size;
}
