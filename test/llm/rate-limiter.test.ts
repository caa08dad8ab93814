import { describe, expect, it } from "vitest";
import { RateLimiter, parseResetDuration, type LimiterClock } from "../../src/llm/rate-limiter.js";
import { createRng, randomIntBetween } from "../../src/core/random.js";

/** A clock that never really waits: `sleep` moves time forward, so grant times are exact and nothing can flake. */
function fakeClock(start = 0): LimiterClock & { advance(milliseconds: number): void } {
  let now = start;
  return {
    now: () => now,
    sleep: async (milliseconds) => {
      now += milliseconds;
    },
    advance: (milliseconds) => {
      now += milliseconds;
    },
  };
}

/** The largest total cost in any half-open 1 s window [t, t + 1000) of the grants from `after` on. */
function busiestSecond(grants: { time: number; cost: number }[], after = 0): number {
  const kept = grants.filter((grant) => grant.time >= after).sort((a, b) => a.time - b.time);
  let busiest = 0;
  for (const start of kept) {
    busiest = Math.max(busiest, kept.filter((grant) => grant.time >= start.time && grant.time < start.time + 1_000).reduce((sum, grant) => sum + grant.cost, 0));
  }
  return busiest;
}

describe("RateLimiter", () => {
  it("admits at most 2 requests in any second at --rpm 120, however many ask at once", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requestsPerMinute: 120 }, clock);
    const grants = await Promise.all(Array.from({ length: 40 }, () => limiter.acquire(() => 0)));
    clock.advance(7_300);
    grants.push(...(await Promise.all(Array.from({ length: 10 }, () => limiter.acquire(() => 0)))));
    expect(busiestSecond(grants.map((grant) => ({ time: grant.time, cost: 1 })))).toBe(2);
    // And it does not starve: pairs 1.05 s apart (the rate less the jitter margin).
    expect(grants.slice(0, 6).map((grant) => grant.time)).toEqual([0, 0, 1_050, 1_050, 2_100, 2_100]);
  });

  it("spaces requests out below one per second (--rpm 30 is one every 2 s, plus the jitter margin)", async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 30 }, fakeClock());
    const grants = await Promise.all(Array.from({ length: 5 }, () => limiter.acquire(() => 0)));
    expect(grants.map((grant) => grant.time)).toEqual([0, 2_050, 4_100, 6_150, 8_200]);
  });

  it("admits at most tpm/60 tokens in any second for calls of random sizes", async () => {
    const rng = createRng(7);
    const limiter = new RateLimiter({ tokensPerMinute: 6_000 }, fakeClock());
    const grants = await Promise.all(Array.from({ length: 200 }, () => limiter.acquire(() => randomIntBetween(rng, 10, 60))));
    expect(busiestSecond(grants)).toBeLessThanOrEqual(100);
    expect(busiestSecond(grants)).toBeGreaterThan(60);
  });

  it("lets a call bigger than a second's budget through after a quiet span as long as its own size", async () => {
    const limiter = new RateLimiter({ tokensPerMinute: 6_000 }, fakeClock());
    const first = await limiter.acquire(() => 50);
    const big = await limiter.acquire(() => 300);
    const after = await limiter.acquire(() => 50);
    expect(first.time).toBe(0);
    expect(big.time).toBe(3_050);
    expect(after.time).toBe(4_100);
  });

  it("counts settled tokens, not estimates, against later calls", async () => {
    const limiter = new RateLimiter({ tokensPerMinute: 6_000 }, fakeClock());
    const first = await limiter.acquire(() => 100);
    limiter.settle(first, 10);
    expect((await limiter.acquire(() => 90)).time).toBe(0);
  });

  it("waits for the provider's reset once its remaining-requests header reaches zero", async () => {
    const clock = fakeClock(1_000);
    const limiter = new RateLimiter({}, clock);
    const headers = new Headers({ "x-ratelimit-remaining-requests": "1", "x-ratelimit-reset-requests": "2s" });
    limiter.observeHeaders(headers);
    expect((await limiter.acquire(() => 0)).time).toBe(1_000);
    // The call just granted spent the last request of the provider's budget.
    expect((await limiter.acquire(() => 0)).time).toBe(3_000);
  });

  it("waits for the token reset when the remaining tokens cannot cover the call", async () => {
    const limiter = new RateLimiter({}, fakeClock());
    limiter.observeHeaders(new Headers({ "x-ratelimit-remaining-tokens": "50", "x-ratelimit-reset-tokens": "500ms" }));
    expect((await limiter.acquire(() => 40)).time).toBe(0);
    expect((await limiter.acquire(() => 40)).time).toBe(500);
  });

  it("reports the current rate and the time spent waiting", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requestsPerMinute: 60 }, clock);
    await Promise.all(Array.from({ length: 4 }, () => limiter.acquire(() => 0)));
    clock.advance(3_000);
    // Grants at 0, 1.05, 2.1 and 3.15 s: the queue was held back 3.15 s in all.
    expect(limiter.stats()).toEqual({ requestsPerMinute: 24, waitedMs: 3_150 });
  });
});

describe("parseResetDuration", () => {
  it("reads OpenAI's durations and plain seconds", () => {
    expect(parseResetDuration("1s")).toBe(1_000);
    expect(parseResetDuration("6m0s")).toBe(360_000);
    expect(parseResetDuration("20ms")).toBe(20);
    expect(parseResetDuration("1h2m3.5s")).toBe(3_723_500);
    expect(parseResetDuration("2.5")).toBe(2_500);
    expect(parseResetDuration("soon")).toBeUndefined();
    expect(parseResetDuration(null)).toBeUndefined();
  });
});
