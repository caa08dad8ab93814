/** The eval set's comparison: one row per cell (accuracy ± stderr, pass@k, rerank@1), as set-summary.json holds it and as printed. */
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

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

/** A fixed-width table: model, benchmark, accuracy ± stderr (n), the largest pass@k, rerank@1 per method, cost, status. */
export function formatSetTable(rows: readonly SetComparisonRow[]): string {
  const methods = [...new Set(rows.flatMap((row) => Object.keys(row["rerank@1"])))].sort();
  const hasCost = rows.some((row) => row.cost !== null);
  const header = ["model", "benchmark", "accuracy ± stderr (n)", "pass@k", ...methods.map((method) => `rerank@1 ${method}`), ...(hasCost ? ["cost"] : []), "status"];
  const body = rows.map((row) => {
    const ks = Object.keys(row["pass@k"]).map(Number).sort((a, b) => a - b);
    const k = ks.at(-1);
    return [
      row.model,
      row.benchmark,
      row.accuracy ? `${percent(row.accuracy.mean)} ± ${percent(row.accuracy.stderr)} (${row.accuracy.n})` : "-",
      k === undefined ? "-" : `pass@${k} ${percent(row["pass@k"][String(k)]!)}`,
      ...methods.map((method) => {
        const value = row["rerank@1"][method];
        return value === undefined || value === null ? "-" : percent(value);
      }),
      ...(hasCost ? [row.cost === null ? "-" : `$${row.cost.toFixed(4)}`] : []),
      row.status,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]) => `  ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")}`.trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...body.map(line)].join("\n");
}
