/**
 * Request and token rate limits shared by every call of a run: sliding one-second windows that admit at most
 * rpm/60 requests and tpm/60 tokens in any second, plus the pauses a provider asks for in its x-ratelimit headers.
 * Calls queue first come, first served; the head of the queue is let through when both windows have room.
 */

/** Limits per minute; either may be absent. */
export interface RateLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/** The clock the limiter waits on (a fake one in tests). */
export interface LimiterClock {
  now(): number;
  sleep(milliseconds: number, signal?: AbortSignal): Promise<void>;
}

/** One admitted call: when it was let through, and the tokens (`cost`) it holds in the token window. */
export interface Grant {
  time: number;
  cost: number;
}

/** What the progress line shows. */
export interface LimiterStats {
  /** Calls granted in the last 10 s, per minute. */
  requestsPerMinute: number;
  /** Time the limits held the queue back, in milliseconds. */
  waitedMs: number;
}

const windowMs = 1_000;
/**
 * Each window also looks this far further back, so that grants one window apart stay in separate seconds at the
 * server when network jitter delays the earlier ones: it costs up to 5% of the rate.
 */
const jitterMarginMs = 50;
const rateSampleMs = 10_000;

/**
 * A sliding window admitting `perSecond` cost units in any `windowMs`. A single cost larger than that waits
 * for a longer quiet span (cost / rate), so that the long-run rate still holds.
 */
class SlidingWindow {
  readonly entries: Grant[] = [];
  constructor(private readonly perSecond: number) {}

  /** The earliest time ≥ `from` at which `cost` fits, given the entries granted so far (all at or before `from`). A cost larger than the window's capacity needs a quiet span of cost / rate. */
  earliest(from: number, cost: number): number {
    const span = Math.max(windowMs, (cost / this.perSecond) * 1_000);
    const capacity = (this.perSecond * span) / 1_000;
    const lookBack = span + jitterMarginMs;
    let time = from;
    const inWindow = this.entries.filter((entry) => entry.time > time - lookBack);
    let used = inWindow.reduce((sum, entry) => sum + entry.cost, 0);
    // Wait for the oldest entries to leave the window until the new cost fits.
    for (let index = 0; used + cost > capacity + 1e-9 && index < inWindow.length; index++) {
      used -= inWindow[index]!.cost;
      time = inWindow[index]!.time + lookBack;
    }
    return time;
  }

  add(entry: Grant): void {
    this.entries.push(entry);
  }

  /** Drops entries no future check can see (older than the longest span before `now`). */
  prune(now: number, keepMs: number): void {
    while (this.entries.length > 0 && this.entries[0]!.time < now - keepMs) this.entries.shift();
  }
}

/** The provider's own budget, from x-ratelimit-remaining-* and x-ratelimit-reset-*. */
interface ProviderBudget {
  remaining: number;
  resetAt: number;
}

/** Shared rate limits: `acquire` before each call, `settle` after it with the tokens it really used. */
export class RateLimiter {
  private readonly requests?: SlidingWindow;
  private readonly tokens?: SlidingWindow;
  private queue: Promise<void> = Promise.resolve();
  private waitedMs = 0;
  private readonly grantTimes: number[] = [];
  private readonly provider: { requests?: ProviderBudget; tokens?: ProviderBudget } = {};

  constructor(
    readonly limits: RateLimits,
    private readonly clock: LimiterClock,
  ) {
    if (limits.requestsPerMinute !== undefined) this.requests = new SlidingWindow(limits.requestsPerMinute / 60);
    if (limits.tokensPerMinute !== undefined) this.tokens = new SlidingWindow(limits.tokensPerMinute / 60);
  }

  /**
   * Waits for this call's turn and for room in the windows, then returns its grant. `estimateTokens` is asked when
   * the call reaches the head of the queue, so it can use what the replies before it have taught.
   */
  acquire(estimateTokens: () => number, signal?: AbortSignal): Promise<Grant> {
    const turn = this.queue.then(() => this.admit(estimateTokens, signal));
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private async admit(estimateTokens: () => number, signal?: AbortSignal): Promise<Grant> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.clock.now();
      const cost = estimateTokens();
      const time = this.grantTime(now, cost);
      if (time <= now) {
        const grant: Grant = { time: now, cost };
        this.requests?.add({ time: now, cost: 1 });
        // The token window holds the grant itself, so `settle` corrects its cost in place.
        this.tokens?.add(grant);
        this.grantTimes.push(now);
        while (this.grantTimes[0]! <= now - rateSampleMs) this.grantTimes.shift();
        this.consumeProviderBudget(cost);
        return grant;
      }
      // Sleep, then look again: replies that landed meanwhile may have settled estimates or sent new headers.
      this.waitedMs += time - now;
      await this.clock.sleep(time - now, signal);
    }
  }

  /** Replaces a grant's estimate by the tokens the call really used. */
  settle(grant: Grant, actualTokens: number): void {
    grant.cost = actualTokens;
  }

  /** Reads OpenAI-style x-ratelimit-remaining-{requests,tokens} and x-ratelimit-reset-{requests,tokens}. */
  observeHeaders(headers: { get(name: string): string | null }, now: number = this.clock.now()): void {
    for (const kind of ["requests", "tokens"] as const) {
      const remaining = Number(headers.get(`x-ratelimit-remaining-${kind}`) ?? Number.NaN);
      const reset = parseResetDuration(headers.get(`x-ratelimit-reset-${kind}`));
      if (Number.isFinite(remaining) && reset !== undefined) this.provider[kind] = { remaining, resetAt: now + reset };
    }
  }

  /** The current request rate and the waiting done so far. */
  stats(): LimiterStats {
    const now = this.clock.now();
    const recent = this.grantTimes.filter((time) => time > now - rateSampleMs && time <= now).length;
    return { requestsPerMinute: (recent * 60_000) / rateSampleMs, waitedMs: this.waitedMs };
  }

  private grantTime(now: number, tokens: number): number {
    let time = Math.max(now, this.providerPause(this.provider.requests, now, 1), this.providerPause(this.provider.tokens, now, tokens));
    // Only a single call larger than a minute's budget looks back further than this.
    const keepMs = 60_000 + jitterMarginMs;
    this.requests?.prune(time, keepMs);
    this.tokens?.prune(time, keepMs);
    // Each window may push the time later, which the other must then re-check: repeat until both agree.
    for (;;) {
      const next = Math.max(this.requests?.earliest(time, 1) ?? time, this.tokens?.earliest(time, tokens) ?? time);
      if (next === time) return time;
      time = next;
    }
  }

  /** When the provider said its budget is spent (or too low for this call), wait for its reset. */
  private providerPause(budget: ProviderBudget | undefined, time: number, cost: number): number {
    if (!budget || time >= budget.resetAt) return time;
    return budget.remaining >= cost ? time : budget.resetAt;
  }

  /** Calls in flight use the provider's budget before its next header says so. */
  private consumeProviderBudget(tokens: number): void {
    if (this.provider.requests) this.provider.requests.remaining -= 1;
    if (this.provider.tokens) this.provider.tokens.remaining -= tokens;
  }
}

/** OpenAI's reset durations ("1s", "6m0s", "20ms", "1h2m3.5s") or plain seconds, in milliseconds. */
export function parseResetDuration(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1_000;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  let total = 0;
  let matched = "";
  for (const part of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    total += Number(part[1]) * units[part[2]!]!;
    matched += part[0];
  }
  return matched === text ? total : undefined;
}
