/** A cell's row of an eval set's comparison (set-summary.json): accuracy ± stderr, pass@k, rerank@1 and cost from its summary. */
import type { RunSummary } from "../core/run-summary.js";
import type { SetComparisonRow } from "../core/set-summary.js";

/** The row of a cell from its summary.json (undefined when the cell never ran). */
export function setComparisonRow(model: string, benchmark: string, directory: string, summary: RunSummary | undefined): SetComparisonRow {
  if (!summary) return { model, benchmark, directory, status: "not run", accuracy: null, "pass@k": {}, "rerank@1": {}, cost: null };
  const { mean, stderr, n } = summary.metrics.accuracy;
  return {
    model,
    benchmark,
    directory,
    status: summary.status ?? "complete",
    accuracy: n > 0 ? { mean, stderr, n } : null,
    "pass@k": summary.metrics["pass@k"],
    "rerank@1": Object.fromEntries(Object.entries(summary.rerank ?? {}).map(([method, result]) => [method, result["rerank@1"]])),
    cost: summary.cost?.total ?? null,
  };
}
