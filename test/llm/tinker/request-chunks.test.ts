import { describe, expect, it } from "vitest";
import { chunkDatums } from "../../../src/llm/tinker/request-chunks.js";
import { encodedDatumBytes, type DatumInput } from "../../../src/llm/tinker/tinker-proto.js";

const datum = (length: number): DatumInput => ({
  modelInput: Array.from({ length }, (_, index) => index),
  lossFnInputs: { target_tokens: { dtype: "int64", values: Array.from({ length }, (_, index) => index + 1) } },
});

describe("chunkDatums", () => {
  it("splits at the datum limit, keeping order", () => {
    const datums = Array.from({ length: 7 }, (_, index) => datum(index + 1));
    const chunks = chunkDatums(datums, { maxDatums: 3, maxBytes: 5_000_000 });
    expect(chunks.map((chunk) => chunk.length)).toEqual([3, 3, 1]);
    expect(chunks.flat()).toEqual(datums);
  });

  it("splits at the byte limit", () => {
    const datums = Array.from({ length: 4 }, () => datum(100));
    const size = encodedDatumBytes(datums[0]!);
    const chunks = chunkDatums(datums, { maxDatums: 1024, maxBytes: 512 + 2 * size });
    expect(chunks.map((chunk) => chunk.length)).toEqual([2, 2]);
  });

  it("refuses one datum larger than the byte limit, naming it", () => {
    expect(() => chunkDatums([datum(1), datum(1000)], { maxDatums: 10, maxBytes: 1024 })).toThrow(/datum 1 encodes to \d+ bytes/);
  });
});
