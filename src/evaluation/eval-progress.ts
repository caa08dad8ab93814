/** A running eval's counts, as its progress observer sees them after each episode. */
import type { LimiterStats } from "../llm/rate-limiter.js";

/** One rerank method's tournaments so far (the kept ones of a resumed run included). */
export interface RerankProgress {
  method: string;
  /** Tasks with a tournament, of `tasks`. */
  reranked: number;
  tasks: number;
  judgeCalls: number;
  /** Tournaments that picked a correct candidate. */
  correct: number;
}

/** Counts so far, kept episodes of a resumed run included; `total` is tasks × attempts. */
export interface EvalProgress {
  done: number;
  total: number;
  /** Already done before this invocation (resume): not counted in the rate. */
  skipped: number;
  correct: number;
  scored: number;
  infraErrors: number;
  modelErrors: number;
  retries: number;
  /** Dollars spent so far, when prices are known. */
  spent?: number;
  /** The rate limiter's current request rate and waiting, when limits are set. */
  limiter?: LimiterStats;
  /** Replies taken from the response cache, when caching. */
  cacheHits?: number;
  /** With reranking: each method's tournaments and judge calls so far. */
  rerank?: RerankProgress[];
}
