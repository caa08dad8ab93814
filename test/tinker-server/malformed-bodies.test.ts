/**
 * The local Tinker server on malformed forward_backward bodies (issue #44): bad protobuf and zstd bombs are the
 * client's error, answered 4xx with the reason, never 500 "Internal error". Cases: malformed-bodies.json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startLocalTinkerServer, type LocalTinkerServer } from "../../src/tinker-server/local-tinker-server.js";
import table from "./malformed-bodies.json" with { type: "json" };

const CaseSchema = z
  .object({
    name: z.string(),
    hex: z.string().optional(),
    zstdFrame: z.object({ declaredBytes: z.number().int().nonnegative().optional(), rleBlocks: z.number().int().nonnegative() }).strict().optional(),
    encoding: z.string().optional(),
    status: z.number().int(),
    reason: z.string(),
  })
  .strict();
const cases = z.object({ cases: z.array(CaseSchema) }).parse(table).cases;

// Block_Maximum_Size with a 128 KiB window (RFC 8878 §3.1.1.2).
const blockBytes = 128 * 1024;

/** A zstd frame of `rleBlocks` blocks repeating a zero byte 128 KiB each, declaring `declaredBytes` when given. */
function zstdFrame(frame: { declaredBytes?: number; rleBlocks: number }): Uint8Array<ArrayBuffer> {
  const header = [0x28, 0xb5, 0x2f, 0xfd];
  // Frame_Header_Descriptor: an 8-byte content size (flag 3) or none (flag 0); then Window_Descriptor 2^17.
  header.push(frame.declaredBytes === undefined ? 0x00 : 0xc0, 0x38);
  if (frame.declaredBytes !== undefined) for (let index = 0; index < 8; index += 1) header.push(Number((BigInt(frame.declaredBytes) >> BigInt(8 * index)) & 0xffn));
  const blocks: number[] = [];
  const blockHeader = (isLast: boolean, type: number, size: number) => {
    const value = (isLast ? 1 : 0) | (type << 1) | (size << 3);
    blocks.push(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff);
  };
  // RLE blocks (type 1) carry one byte; an empty frame still needs one block, an empty raw one (type 0).
  for (let index = 0; index < frame.rleBlocks; index += 1) {
    blockHeader(index === frame.rleBlocks - 1, 1, blockBytes);
    blocks.push(0);
  }
  if (frame.rleBlocks === 0) blockHeader(true, 0, 0);
  return Uint8Array.from([...header, ...blocks]);
}

function body(entry: z.infer<typeof CaseSchema>): Uint8Array<ArrayBuffer> {
  if (entry.zstdFrame) return zstdFrame(entry.zstdFrame);
  const hex = entry.hex!.replace(/<<(\d+)×([0-9a-f]*)>>/g, (_match, count: string, unit: string) => unit.repeat(Number(count)));
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

let server: LocalTinkerServer;
beforeAll(async () => {
  server = await startLocalTinkerServer({});
});
afterAll(() => server.close());

describe("forward_backward on malformed bodies", () => {
  it.each(cases)("$name: $status", async (entry) => {
    const response = await fetch(`${server.url}/api/v1/forward_backward`, {
      method: "POST",
      headers: { "x-api-key": "tml-test", "content-type": "application/x-protobuf", ...(entry.encoding ? { "content-encoding": entry.encoding } : {}) },
      body: body(entry),
    });
    const reply = (await response.json()) as { error: { message: string } };
    expect({ status: response.status, message: reply.error.message }).toEqual({ status: entry.status, message: expect.stringContaining(entry.reason) });
  });
});

describe("a sampler path that is not valid percent-encoding", () => {
  it("is a 400 naming the sampler id, not a 500 (issue #44)", async () => {
    const response = await fetch(`${server.url}/api/v1/samplers/%ZZ`, { headers: { "x-api-key": "tml-test" } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/sampler id in the path is not valid percent-encoding/);
  });
});
