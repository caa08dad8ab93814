/** The per-method rerank accounting in summary.json (`rerank.<method>`): coverage, judge cost, parse errors and ties. */

/**
 * More than this share of unparsable judge verdicts and a method is `failed`: its picks are then mostly tie-breaks
 * on parse errors, so its rerank@1 would measure the tie rule, not the judge.
 */
export const failedParseErrorShare = 0.5;

/** One selection method's rerank over a run. */
export interface RerankMethodSummary {
  /**
   * `scored`: every task reranked, rerank@1 reported. `incomplete`: some tasks have no tournament record (rerank@1
   * covers the reranked ones; --resume reranks the rest). `failed`: more than `failedParseErrorShare` of the judge
   * verdicts were unparsable, so no rerank@1 is reported.
   */
  status: "scored" | "incomplete" | "failed";
  tasksExpected: number;
  tasksReranked: number;
  /** Tasks whose rerank stopped on an endpoint failure (recorded; --resume retries them). */
  rerankErrors: number;
  /** Share of labelled reranked tasks whose pick is correct; null when failed or when no task is labelled. */
  "rerank@1": number | null;
  judgeCalls: number;
  /** Prompt + completion tokens of the judge calls. */
  judgeTokens: number;
  /** Judge replies without a readable rating (each counts as a tie in the tournament). */
  parseErrors: number;
  /** parseErrors / judgeCalls (0 without judge calls). */
  parseErrorRate: number;
  /** Pairwise verdicts with equal readable ratings. */
  verdictTies: number;
  /** Tasks whose top score was shared, so the pick was drawn at random with the run seed. */
  tieBreaks: number;
}
