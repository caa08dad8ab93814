/** The eval set's comparison printed as a table: one row per cell (accuracy ± stderr, pass@k, rerank@1), as set-summary.json holds it. */
import type { SetComparisonRow } from "../core/set-summary.js";

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
