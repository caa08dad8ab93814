/** Splits a forward_backward's datums into requests within the server's limits (datums and bytes per request). */
import { encodedDatumBytes, type DatumInput } from "./tinker-proto.js";

/** A datum or its encoded bytes (sized without encoding it again). */
type Datum = DatumInput | Uint8Array;

/** The server's per-request limits (ClientConfigResponse: fwdbwd_max_chunk_len, fwdbwd_max_chunk_bytes_count). */
export interface ChunkLimits {
  maxDatums: number;
  maxBytes: number;
}

// Room for the request's own fields (model id, seq id, loss name and config) beside the datums.
const REQUEST_OVERHEAD_BYTES = 512;

/** Consecutive groups of datums, each within both limits; one datum over the byte limit is an error naming it. */
export function chunkDatums<Item extends Datum>(datums: readonly Item[], limits: ChunkLimits): Item[][] {
  const budget = limits.maxBytes - REQUEST_OVERHEAD_BYTES;
  const chunks: Item[][] = [];
  let current: Item[] = [];
  let bytes = 0;
  datums.forEach((datum, index) => {
    const size = encodedDatumBytes(datum);
    if (size > budget) throw new Error(`datum ${index} encodes to ${size} bytes; the server takes at most ${limits.maxBytes} per request`);
    if (current.length > 0 && (current.length >= limits.maxDatums || bytes + size > budget)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(datum);
    bytes += size;
  });
  if (current.length > 0) chunks.push(current);
  return chunks;
}
