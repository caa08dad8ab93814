/** The per-method rerank accounting in summary.json (`rerank.<method>`): coverage, judge cost, parse errors and ties. */
import type { RerankMethodSummary } from "../core/run-summary.js";

/**
 * More than this share of unparsable judge verdicts and a method is `failed`: its picks are then mostly tie-breaks
 * on parse errors, so its rerank@1 would measure the tie rule, not the judge.
 */
export const failedParseErrorShare = 0.5;

/** One selection method's rerank over a run; the schema is summary.json's, in src/core/run-summary.ts. */
export type { RerankMethodSummary };
