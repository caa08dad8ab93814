import { describe, expect, it } from "vitest";
import { decodeTokens, encodeText, END_ID, tokenId, VOCABULARY } from "../../../src/models/tiny/tokenizer.js";

describe("tiny tokenizer", () => {
  it("round-trips printable ASCII text", () => {
    const text = "What is 12+7*3? 7*3=21 12+21=33 \\boxed{33} <rating_A>10</rating_A>\n~";
    expect(decodeTokens(encodeText(text))).toBe(text);
  });

  it("reads the answer and rating tags as one token each", () => {
    expect(encodeText("\\boxed{")).toEqual([tokenId("\\boxed{")]);
    expect(encodeText("<rating_B>1</rating_B>")).toEqual([tokenId("<rating_B>"), tokenId("1"), tokenId("</rating_B>")]);
    expect(encodeText("<ratin")).toHaveLength(6);
  });

  it("maps characters outside the vocabulary to ?", () => {
    expect(decodeTokens(encodeText("√2 → é"))).toBe("?2 ? ?");
  });

  it("drops control tokens when decoding unless asked to keep them", () => {
    const ids = [tokenId("<|assistant|>"), ...encodeText("42"), END_ID];
    expect(decodeTokens(ids)).toBe("42");
    expect(decodeTokens(ids, true)).toBe("<|assistant|>42<|end|>");
  });

  it("has no duplicate tokens", () => {
    expect(new Set(VOCABULARY).size).toBe(VOCABULARY.length);
  });
});
