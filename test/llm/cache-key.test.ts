import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cacheKey, isCacheable } from "../../src/llm/cache-key.js";
import type { ChatRequest } from "../../src/core/llm-client.js";

interface Side {
  baseUrl: string;
  model: string;
  request: ChatRequest;
}
const table = JSON.parse(readFileSync(new URL("../fixtures/llm/cache-key-cases.json", import.meta.url), "utf8")) as {
  base: Side;
  cases: { name: string; change: { baseUrl?: string; model?: string; request?: Partial<ChatRequest> }; sameKey: boolean }[];
};
const keyOf = (side: Side) => cacheKey(side.baseUrl, side.model, side.request);

describe("cacheKey", () => {
  for (const { name, change, sameKey } of table.cases) {
    it(`${sameKey ? "keeps" : "changes"} the key for ${name}`, () => {
      const changed = { ...table.base, ...change, request: { ...table.base.request, ...change.request } };
      expect(keyOf(changed) === keyOf(table.base)).toBe(sameKey);
    });
  }

  it("ignores the abort signal", () => {
    expect(keyOf({ ...table.base, request: { ...table.base.request, signal: new AbortController().signal } })).toBe(keyOf(table.base));
  });
});

describe("isCacheable", () => {
  const messages = [{ role: "user" as const, content: "x" }];
  it("caches greedy or seeded requests, and sampled unseeded ones only under always", () => {
    expect(isCacheable({ messages, temperature: 0 }, "on")).toBe(true);
    expect(isCacheable({ messages, temperature: 0.7, seed: 1 }, "on")).toBe(true);
    expect(isCacheable({ messages, temperature: 0.7 }, "on")).toBe(false);
    expect(isCacheable({ messages }, "on")).toBe(false);
    expect(isCacheable({ messages, temperature: 0.7 }, "always")).toBe(true);
  });
});
