/** summary.json: the figures of one eval run, versioned so that older run folders still load. */
import { z } from "zod";

/** Written into every new summary.json and config.json; files without it are format 1 (before unscored counts). */
export const runFormatVersion = 2;

export const AccuracyStatsSchema = z.object({
  mean: z.number(),
  stderr: z.number(),
  /** 95% Wilson score interval on the episode-level proportion. */
  ci95: z.tuple([z.number(), z.number()]),
  /** Scored episodes. */
  n: z.number().int().nonnegative(),
});
export type AccuracyStats = z.infer<typeof AccuracyStatsSchema>;

/**
 * One selection method's rerank over a run (`rerank.<method>`). `scored`: every task reranked, rerank@1 reported.
 * `incomplete`: some tasks have no tournament record (rerank@1 covers the reranked ones; --resume reranks the rest).
 * `failed`: most judge verdicts were unparsable, so no rerank@1 is reported.
 */
export const RerankMethodSummarySchema = z.object({
  status: z.enum(["scored", "incomplete", "failed"]),
  tasksExpected: z.number().int().nonnegative(),
  tasksReranked: z.number().int().nonnegative(),
  /** Tasks whose rerank stopped on an endpoint failure (recorded; --resume retries them). */
  rerankErrors: z.number().int().nonnegative(),
  /** Share of labelled reranked tasks whose pick is correct; null when failed or when no task is labelled. */
  "rerank@1": z.number().nullable(),
  judgeCalls: z.number().int().nonnegative(),
  /** Prompt + completion tokens of the judge calls. */
  judgeTokens: z.number().nonnegative(),
  /** The judge calls' tokens split; cachedPromptTokens are prompt tokens the provider served from its prompt cache (absent in older files). */
  judgeUsage: z.object({ promptTokens: z.number().nonnegative(), completionTokens: z.number().nonnegative(), cachedPromptTokens: z.number().nonnegative() }).optional(),
  /** Dollars the judge calls cost, when prices were given (also in `cost.byRole.judge`). */
  judgeCost: z.number().nonnegative().optional(),
  /** Judge replies without a readable rating (each counts as a tie in the tournament). */
  parseErrors: z.number().int().nonnegative(),
  /** parseErrors / judgeCalls (0 without judge calls). */
  parseErrorRate: z.number().nonnegative(),
  /** Pairwise verdicts with equal readable ratings. */
  verdictTies: z.number().int().nonnegative(),
  /** Tasks whose top score was shared, so the pick was drawn at random with the run seed. */
  tieBreaks: z.number().int().nonnegative(),
});
export type RerankMethodSummary = z.infer<typeof RerankMethodSummarySchema>;

/** What a run's model calls cost in dollars, from the user's prices (`--prices` or the endpoint's user config). */
export const RunCostSchema = z.object({
  total: z.number().nonnegative(),
  /** Mean over the recorded episodes of their own calls (the judge calls of --rerank are in `total`, not here). */
  perEpisode: z.number().nonnegative(),
  /** By trajectory name (solver, ...), and `judge` for the judge calls of --rerank. */
  byRole: z.record(z.string(), z.number().nonnegative()),
  /** Calls answered by the local response cache: they cost nothing and are not in the total. */
  cachedCalls: z.number().int().nonnegative(),
  /** What the cached calls would have cost. */
  savedByCache: z.number().nonnegative(),
});
export type RunCost = z.infer<typeof RunCostSchema>;

export const RunSummarySchema = z.object({
  formatVersion: z.number().int().min(1).default(1),
  counts: z.object({
    tasks: z.number().int().nonnegative(),
    episodes: z.number().int().nonnegative(),
    /** Episodes with a score: in the accuracy, pass@k and maj@k. */
    scored: z.number().int().nonnegative(),
    /** Episodes nothing could grade: counted here only (format 1 files have none). */
    unscored: z.number().int().nonnegative().default(0),
    attemptsPerTask: z.number().int().positive(),
    expectedEpisodes: z.number().int().nonnegative(),
  }),
  /** infra errors are excluded from every score; model errors count as wrong answers. */
  errors: z.object({
    infra: z.number().int().nonnegative(),
    model: z.number().int().nonnegative(),
    /** infra ÷ episodes: the share of the run's verifier (its cookbook's evaluator) and flow that failed (absent in older files). */
    infraRate: z.number().min(0).max(1).optional(),
  }),
  metrics: z
    .object({
      accuracy: AccuracyStatsSchema,
      "pass@k": z.record(z.string(), z.number()),
      "maj@k": z.record(z.string(), z.number()).optional(),
      /** Mean score value (reward) of the scored episodes. */
      reward: z.object({ mean: z.number() }),
      /** Mean of each signal over the episodes that report it (infra failures aside). */
      signals: z.record(z.string(), z.number()),
    })
    // Extensions such as the rerank metrics (rerank@1, judgeCalls).
    .catchall(z.unknown()),
  tokens: z.object({ prompt: z.number(), completion: z.number(), total: z.number() }),
  /** Episode latency; episodes with a call answered by the response cache are left out (their latency says nothing of the endpoint). */
  latency: z.object({ p50Ms: z.number(), p95Ms: z.number() }),
  /** Model calls answered by the local response cache, when any were. */
  cache: z.object({ cachedCalls: z.number().int().nonnegative(), episodesWithCachedCalls: z.number().int().nonnegative() }).optional(),
  /** Present when prices were given. */
  cost: RunCostSchema.optional(),
  /** Per selection method, when the run reranks (`rllm eval --rerank`). */
  rerank: z.record(z.string(), RerankMethodSummarySchema).optional(),
  /** Set when the run loop writes the file: "cancelled" after Ctrl-C, "incomplete" while `unfinished` names work left. */
  status: z.enum(["complete", "incomplete", "cancelled"]).optional(),
  /** What --resume would still do (tasks left unreranked, ...). */
  unfinished: z.array(z.string()).optional(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;
