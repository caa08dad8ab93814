import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ResponseCache, cacheFile } from "../../src/llm/response-cache.js";
import { withResponseCache } from "../../src/llm/caching-llm-client.js";
import { createRecordingLlmClient } from "../../src/testing/recording-llm-client.js";
import type { ChatResponse } from "../../src/core/llm-client.js";

const freshFile = () => cacheFile(mkdtempSync(path.join(os.tmpdir(), "rllm-cache-")));
const reply = (text: string): ChatResponse => ({ choices: [{ text, toolCalls: [], finishReason: "stop" }], usage: { promptTokens: 3, completionTokens: 1 }, model: "m" });

describe("ResponseCache", () => {
  it("returns what was stored, and nothing once older than the TTL", () => {
    const cache = ResponseCache.open(freshFile());
    cache.put("k", reply("4"), 1_000);
    expect(cache.get("k", undefined, 5_000)?.choices[0]?.text).toBe("4");
    expect(cache.get("k", 10_000, 5_000)).toBeDefined();
    expect(cache.get("k", 3_000, 5_000)).toBeUndefined();
    cache.close();
  });

  it("clears entries older than a cut-off and reports the rest in stats", () => {
    const cache = ResponseCache.open(freshFile());
    cache.put("old", reply("a"), 1_000);
    cache.put("new", reply("b"), 9_000);
    expect(cache.clear(5_000, 10_000)).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 1, oldest: 9_000, newest: 9_000 });
    expect(cache.clear()).toBe(1);
    expect(cache.stats().entries).toBe(0);
    cache.close();
  });

  it("sets a corrupt file aside, says so, and works as an empty cache", () => {
    const file = freshFile();
    ResponseCache.open(file).close();
    writeFileSync(file, "this is not a SQLite database, just garbage bytes ".repeat(200));
    const cache = ResponseCache.open(file, 42);
    expect(cache.recovery).toMatch(/corrupt.*rebuilt/);
    expect(existsSync(`${file}.corrupt-42`)).toBe(true);
    expect(cache.get("k", undefined)).toBeUndefined();
    cache.put("k", reply("x"));
    expect(cache.get("k", undefined)?.choices[0]?.text).toBe("x");
    cache.close();
    expect(readdirSync(path.dirname(file)).some((name) => name.startsWith("responses.sqlite.corrupt-42"))).toBe(true);
  });
});

describe("withResponseCache", () => {
  it("answers a repeated greedy request from the cache, marked cached, without calling the model", async () => {
    const inner = createRecordingLlmClient({ reply: (_request, index) => `reply ${index}` });
    const client = withResponseCache(inner, { cache: ResponseCache.open(freshFile()), baseUrl: "http://x/v1", policy: "on" });
    const request = { messages: [{ role: "user" as const, content: "q" }], temperature: 0 };
    const first = await client.chat(request);
    const second = await client.chat(request);
    expect(inner.calls).toHaveLength(1);
    expect(first.cached).toBeUndefined();
    expect(second).toEqual({ ...first, cached: true });
    expect(client.counters).toEqual({ hits: 1, misses: 1, bypassed: 0 });
  });

  it("sends sampled requests without a seed every time unless the policy is always", async () => {
    const inner = createRecordingLlmClient({ reply: "r" });
    const request = { messages: [{ role: "user" as const, content: "q" }], temperature: 1 };
    const on = withResponseCache(inner, { cache: ResponseCache.open(freshFile()), baseUrl: "http://x/v1", policy: "on" });
    await on.chat(request);
    await on.chat(request);
    expect(inner.calls).toHaveLength(2);
    const always = withResponseCache(inner, { cache: ResponseCache.open(freshFile()), baseUrl: "http://x/v1", policy: "always" });
    await always.chat(request);
    await always.chat(request);
    expect(inner.calls).toHaveLength(3);
  });
});
