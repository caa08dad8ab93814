import { describe, expect, it } from "vitest";
import { isSameSecret } from "../../src/http/check-api-key.js";

describe("isSameSecret", () => {
  it("is true only for the same key", () => {
    expect(isSameSecret("s3cret", "s3cret")).toBe(true);
    expect(isSameSecret("s3cret", "s3creT")).toBe(false);
    expect(isSameSecret("", "s3cret")).toBe(false);
  });

  // timingSafeEqual throws on buffers of different lengths: "é" is one character but two UTF-8 bytes (issue #44).
  it("answers, without throwing, for keys of the same length in characters but not in bytes", () => {
    expect(isSameSecret("é", "k")).toBe(false);
    expect(isSameSecret("k", "é")).toBe(false);
    expect(isSameSecret("é", "é")).toBe(true);
  });
});
