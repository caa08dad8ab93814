/** rerank@1, judge cost, parse errors and ties per method, from the per-task rerank outcomes (pure). */
import { failedParseErrorShare, type RerankMethodSummary } from "../metrics/rerank-method-summary.js";
import type { Selection } from "./tournament-record.js";

/** The judge calls' tokens of one task's rerank, split by kind. */
export interface JudgeUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the provider served from its prompt cache. */
  cachedPromptTokens: number;
}

/** What one task's rerank contributes to the metrics. */
export interface RerankOutcome {
  method: string;
  /** Whether the pick is correct; undefined for unlabelled candidates. */
  isCorrect: boolean | undefined;
  judgeCalls: number;
  judgeTokens: number;
  judgeUsage?: JudgeUsage;
  /** Dollars of the judge calls, when priced. */
  judgeCost?: number;
  parseErrors: number;
  verdictTies: number;
  tieBreak: boolean;
}

/** The outcome of one task's selection: its judge calls' parse errors and ties read from the record. */
export function rerankOutcome(
  method: string,
  selection: Selection,
  isCorrect: boolean | undefined,
  judgeTokens: number,
  judge: { usage?: JudgeUsage; cost?: number } = {},
): RerankOutcome {
  const verdicts = [...selection.comparisons, ...selection.points];
  return {
    method,
    isCorrect,
    judgeCalls: selection.judgeCalls,
    judgeTokens,
    ...(judge.usage ? { judgeUsage: judge.usage } : {}),
    ...(judge.cost !== undefined ? { judgeCost: judge.cost } : {}),
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
      ...judgeSplit(ofMethod),
      parseErrors,
      parseErrorRate,
      verdictTies: sum(ofMethod.map((outcome) => outcome.verdictTies)),
      tieBreaks: ofMethod.filter((outcome) => outcome.tieBreak).length,
    };
  }
  return summaries;
}

// The split usage and cost, when every outcome has them (a rerank run without prices has no cost).
function judgeSplit(outcomes: readonly RerankOutcome[]): { judgeUsage?: JudgeUsage; judgeCost?: number } {
  const usages = outcomes.flatMap((outcome) => (outcome.judgeUsage ? [outcome.judgeUsage] : []));
  const costs = outcomes.flatMap((outcome) => (outcome.judgeCost !== undefined ? [outcome.judgeCost] : []));
  return {
    ...(usages.length === outcomes.length && outcomes.length > 0
      ? {
          judgeUsage: {
            promptTokens: sum(usages.map((usage) => usage.promptTokens)),
            completionTokens: sum(usages.map((usage) => usage.completionTokens)),
            cachedPromptTokens: sum(usages.map((usage) => usage.cachedPromptTokens)),
          },
        }
      : {}),
    ...(costs.length === outcomes.length && outcomes.length > 0 ? { judgeCost: sum(costs) } : {}),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
