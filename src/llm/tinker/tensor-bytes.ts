/**
 * Dense tensor bytes as Tinker's protobuf carries them: raw little-endian values of the declared dtype. Replies may
 * carry INT32 (widened to int64 values) or BFLOAT16 (the upper 16 bits of a float32), so decoding widens both.
 */

/** Tinker's DType enum (tinker_public.DType). */
export const DTYPE = { unspecified: 0, float32: 1, int64: 2, int32: 3, bfloat16: 4 } as const;

/** The dtypes the client writes. */
export type WireDtype = "float32" | "int64";

// Typed arrays use the host's byte order; on a little-endian host (every platform Node ships for) they are the wire
// bytes as they are, which is ~10× faster than a DataView write per value.
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian int32 bytes of token ids (EncodedTextChunk.tokens, SampledSequence.tokens). */
export function int32Bytes(values: readonly number[]): Uint8Array {
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(Int32Array.from(values).buffer);
  const view = new DataView(new ArrayBuffer(values.length * 4));
  for (const [index, value] of values.entries()) view.setInt32(index * 4, value, true);
  return new Uint8Array(view.buffer);
}

/** Little-endian int64 bytes; values must be safe integers. */
export function int64Bytes(values: readonly number[]): Uint8Array {
  if (LITTLE_ENDIAN_HOST) {
    // Low and high 32-bit words of each value (two's complement for negatives), without a BigInt per value.
    const words = new Int32Array(values.length * 2);
    for (let index = 0; index < values.length; index++) {
      const value = values[index]!;
      words[index * 2] = value | 0;
      words[index * 2 + 1] = Math.floor(value / 4_294_967_296);
    }
    return new Uint8Array(words.buffer);
  }
  const view = new DataView(new ArrayBuffer(values.length * 8));
  for (const [index, value] of values.entries()) view.setBigInt64(index * 8, BigInt(value), true);
  return new Uint8Array(view.buffer);
}

/** Little-endian float32 bytes. */
export function float32Bytes(values: ArrayLike<number>): Uint8Array {
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(Float32Array.from(values).buffer);
  const view = new DataView(new ArrayBuffer(values.length * 4));
  for (let index = 0; index < values.length; index++) view.setFloat32(index * 4, values[index]!, true);
  return new Uint8Array(view.buffer);
}

/** Bytes of `values` in `dtype`. */
export function tensorBytes(values: readonly number[], dtype: WireDtype): Uint8Array {
  return dtype === "int64" ? int64Bytes(values) : float32Bytes(values);
}

/** Values of dense bytes in any wire dtype, widened to JS numbers (int32 → int64 values, bfloat16 → float32). */
export function decodeTensorBytes(bytes: Uint8Array, dtype: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = bytesPerValue(dtype);
  if (bytes.byteLength % width !== 0) throw new Error(`tensor of ${bytes.byteLength} bytes is not a whole number of ${dtypeName(dtype)} values`);
  const values: number[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += width) {
    if (dtype === DTYPE.float32) values.push(view.getFloat32(offset, true));
    else if (dtype === DTYPE.int64) values.push(Number(view.getBigInt64(offset, true)));
    else if (dtype === DTYPE.int32) values.push(view.getInt32(offset, true));
    else values.push(bfloat16ToNumber(view.getUint16(offset, true)));
  }
  return values;
}

/** Bytes per value of a wire dtype; UNSPECIFIED is an error (the SDK always sets it). */
export function bytesPerValue(dtype: number): number {
  if (dtype === DTYPE.float32 || dtype === DTYPE.int32) return 4;
  if (dtype === DTYPE.int64) return 8;
  if (dtype === DTYPE.bfloat16) return 2;
  throw new Error(`tensor dtype ${dtype} (${dtypeName(dtype)}) has no value width`);
}

function dtypeName(dtype: number): string {
  return Object.entries(DTYPE).find(([, value]) => value === dtype)?.[0] ?? "unknown";
}

// bfloat16 is the high half of an IEEE float32: shift it back into place.
function bfloat16ToNumber(bits: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, bits << 16, true);
  return view.getFloat32(0, true);
}
