/** rerank@1 and judge cost per method, from the per-task rerank outcomes (pure). */

/** What one task's rerank contributes to the metrics. */
export interface RerankOutcome {
  method: string;
  isCorrect: boolean;
  judgeCalls: number;
  judgeTokens: number;
}

export interface RerankMetrics {
  /** Share of tasks whose chosen candidate is correct, per method (0 for no tasks). */
  "rerank@1": Record<string, number>;
  /** Total judge calls, per method. */
  judgeCalls: Record<string, number>;
  /** Total judge tokens (prompt + completion), per method. */
  judgeTokens: Record<string, number>;
}

/** Aggregates the outcomes by method. */
export function rerankMetrics(outcomes: readonly RerankOutcome[]): RerankMetrics {
  const metrics: RerankMetrics = { "rerank@1": {}, judgeCalls: {}, judgeTokens: {} };
  const tasks: Record<string, number> = {};
  for (const outcome of outcomes) {
    tasks[outcome.method] = (tasks[outcome.method] ?? 0) + 1;
    metrics["rerank@1"][outcome.method] = (metrics["rerank@1"][outcome.method] ?? 0) + (outcome.isCorrect ? 1 : 0);
    metrics.judgeCalls[outcome.method] = (metrics.judgeCalls[outcome.method] ?? 0) + outcome.judgeCalls;
    metrics.judgeTokens[outcome.method] = (metrics.judgeTokens[outcome.method] ?? 0) + outcome.judgeTokens;
  }
  for (const method of Object.keys(tasks)) metrics["rerank@1"][method] = metrics["rerank@1"][method]! / tasks[method]!;
  return metrics;
}
