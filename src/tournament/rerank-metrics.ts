/** rerank@1, judge cost, parse errors and ties per method, from the per-task rerank outcomes (pure). */
import { failedParseErrorShare, type RerankMethodSummary } from "../metrics/rerank-method-summary.js";
import type { Selection } from "./tournament-record.js";

/** What one task's rerank contributes to the metrics. */
export interface RerankOutcome {
  method: string;
  /** Whether the pick is correct; undefined for unlabelled candidates. */
  isCorrect: boolean | undefined;
  judgeCalls: number;
  judgeTokens: number;
  parseErrors: number;
  verdictTies: number;
  tieBreak: boolean;
}

/** The outcome of one task's selection: its judge calls' parse errors and ties read from the record. */
export function rerankOutcome(method: string, selection: Selection, isCorrect: boolean | undefined, judgeTokens: number): RerankOutcome {
  const verdicts = [...selection.comparisons, ...selection.points];
  return {
    method,
    isCorrect,
    judgeCalls: selection.judgeCalls,
    judgeTokens,
    parseErrors: verdicts.filter((verdict) => verdict.parseError).length,
    verdictTies: selection.comparisons.filter((comparison) => !comparison.parseError && comparison.winner === "tie").length,
    tieBreak: selection.tieBreak,
  };
}

/** What was planned: the methods, the tasks each should rerank, and tasks whose rerank failed per method. */
export interface RerankPlan {
  methods: readonly string[];
  tasksExpected: number;
  rerankErrors?: Readonly<Record<string, number>>;
}

/**
 * Aggregates the outcomes by method. A method is `failed` when more than `failedParseErrorShare` of its judge calls
 * were unparsable (it then gets no rerank@1), `incomplete` when fewer tasks than planned were reranked.
 */
export function rerankMetrics(outcomes: readonly RerankOutcome[], plan: RerankPlan): Record<string, RerankMethodSummary> {
  const summaries: Record<string, RerankMethodSummary> = {};
  for (const method of plan.methods) {
    const ofMethod = outcomes.filter((outcome) => outcome.method === method);
    const labelled = ofMethod.filter((outcome) => outcome.isCorrect !== undefined);
    const judgeCalls = sum(ofMethod.map((outcome) => outcome.judgeCalls));
    const parseErrors = sum(ofMethod.map((outcome) => outcome.parseErrors));
    const parseErrorRate = judgeCalls === 0 ? 0 : parseErrors / judgeCalls;
    const isFailed = parseErrorRate > failedParseErrorShare;
    const status = isFailed ? "failed" : ofMethod.length < plan.tasksExpected ? "incomplete" : "scored";
    summaries[method] = {
      status,
      tasksExpected: plan.tasksExpected,
      tasksReranked: ofMethod.length,
      rerankErrors: plan.rerankErrors?.[method] ?? 0,
      "rerank@1": isFailed || labelled.length === 0 ? null : labelled.filter((outcome) => outcome.isCorrect).length / labelled.length,
      judgeCalls,
      judgeTokens: sum(ofMethod.map((outcome) => outcome.judgeTokens)),
      parseErrors,
      parseErrorRate,
      verdictTies: sum(ofMethod.map((outcome) => outcome.verdictTies)),
      tieBreaks: ofMethod.filter((outcome) => outcome.tieBreak).length,
    };
  }
  return summaries;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
