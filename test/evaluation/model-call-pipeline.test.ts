import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildModelCallPipeline } from "../../src/evaluation/model-call-pipeline.js";
import type { ChatRequest } from "../../src/core/llm-client.js";
import { ResponseCache, cacheFile } from "../../src/llm/response-cache.js";
import { RateLimiter } from "../../src/llm/rate-limiter.js";
import { RetryBudget } from "../../src/llm/retry-policy.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body) => ({
    text: `echo ${lastUserText(body)}`,
    headers: { "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "250ms" },
  }));
});
afterAll(() => server.close());

const pipeline = (cache: ResponseCache, extra: { limiter?: RateLimiter; policy?: "on" | "always" } = {}) =>
  buildModelCallPipeline({
    baseUrl: server.url,
    model: "scripted",
    maxRetries: 0,
    retryBudget: new RetryBudget(0),
    onRetry: () => {},
    cache: { store: cache, policy: extra.policy ?? "on" },
    ...(extra.limiter ? { limiter: extra.limiter } : {}),
  });
const freshCache = () => ResponseCache.open(cacheFile(mkdtempSync(path.join(os.tmpdir(), "rllm-pipeline-"))));
const ask = (content: string, sampling: Partial<ChatRequest>): ChatRequest => ({ messages: [{ role: "user", content }], ...sampling });

describe("the eval's model call pipeline against a scripted server", () => {
  it("misses the cache on a changed seed, temperature or message, and hits on the same request", async () => {
    const { client } = pipeline(freshCache());
    const before = server.requests.length;
    const calls = async (request: ChatRequest) => {
      const start = server.requests.length;
      await client.chat(request);
      return server.requests.length - start;
    };
    expect(await calls(ask("a", { temperature: 0, seed: 1 }))).toBe(1);
    expect(await calls(ask("a", { temperature: 0, seed: 1 }))).toBe(0);
    expect(await calls(ask("a", { temperature: 0, seed: 2 }))).toBe(1);
    expect(await calls(ask("a", { temperature: 0.5, seed: 2 }))).toBe(1);
    expect(await calls(ask("b", { temperature: 0.5, seed: 2 }))).toBe(1);
    expect(server.requests.length - before).toBe(4);
  });

  it("sends sampled requests without a seed every time, unless the policy is always", async () => {
    const cache = freshCache();
    const on = pipeline(cache).client;
    const always = pipeline(cache, { policy: "always" }).client;
    const before = server.requests.length;
    for (const client of [on, on, always, always]) await client.chat(ask("sampled", { temperature: 1 }));
    expect(server.requests.length - before).toBe(3);
  });

  it("feeds the provider's rate-limit headers to the limiter, which then waits for the reset", async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new RateLimiter({}, {
      now: () => now,
      sleep: async (milliseconds) => {
        waits.push(milliseconds);
        now += milliseconds;
      },
    });
    const { client } = pipeline(freshCache(), { limiter, policy: "always" });
    await client.chat(ask("first", { temperature: 1 }));
    now = 100;
    await client.chat(ask("second", { temperature: 1 }));
    // The reply said 0 requests remain until 250 ms after it arrived (at time 0 on the fake clock).
    expect(waits).toEqual([150]);
  });
});
