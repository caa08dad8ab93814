import { describe, expect, it } from "vitest";
import { findMathSpans } from "../../../verifiers/math/find-math-spans.js";

// The regular expression findMathSpans stands for: the linear scan must find the same spans on any text.
const spanPattern = /(?<!\\)\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([^\n]+?)\\\)|(?<!\\)\$((?:[^\n$\\]|\\[^\n])+?)\$/g;

function spansByPattern(text: string): { content: string; start: number; end: number }[] {
  return [...text.matchAll(spanPattern)].map((match) => ({
    content: (match[1] ?? match[2] ?? match[3] ?? match[4]!).trim(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** Seeded texts over the characters that open, close and escape spans (mulberry32). */
function randomTexts(count: number, seed: number): string[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const pieces = ["$", "$$", "\\", "\\(", "\\)", "\\[", "\\]", "\n", "x", "1", " ", "(", ")", "[", "]", "\\$"];
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)]!).join(""),
  );
}

describe("findMathSpans", () => {
  it("finds the spans the regular expression finds, on 20,000 seeded texts of delimiters", () => {
    for (const text of randomTexts(20_000, 0x5eed)) expect(findMathSpans(text), JSON.stringify(text)).toEqual(spansByPattern(text));
  });

  it("keeps inline spans to one line and skips escaped dollars", () => {
    expect(findMathSpans("a $1$ b \\(x\ny\\) $$2\n3$$ \\$4$")).toEqual([
      { content: "1", start: 2, end: 5 },
      { content: "2\n3", start: 16, end: 23 },
    ]);
  });
});
