/** The summary table printed at the end of `rllm eval`. */
import type { RunSummary } from "../metrics/summarize-run.js";

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

/** Lines of the table: accuracy with stderr and interval, pass@k, maj@k, extra metrics, errors, tokens, latency. */
export function formatSummary(summary: RunSummary): string {
  const { accuracy } = summary.metrics;
  const rows: [string, string][] = [
    ["tasks × attempts", `${summary.counts.tasks} × ${summary.counts.attemptsPerTask} (${summary.counts.scored} scored, ${summary.counts.unscored} unscored)`],
    ["accuracy", `${percent(accuracy.mean)} ± ${percent(accuracy.stderr)} (95% CI ${percent(accuracy.ci95[0])}–${percent(accuracy.ci95[1])})`],
  ];
  for (const [k, value] of Object.entries(summary.metrics["pass@k"])) rows.push([`pass@${k}`, percent(value)]);
  for (const [k, value] of Object.entries(summary.metrics["maj@k"] ?? {})) rows.push([`maj@${k}`, percent(value)]);
  for (const [name, value] of Object.entries(summary.metrics)) {
    if (name === "accuracy" || name === "pass@k" || name === "maj@k" || name === "reward" || name === "signals") continue;
    if (value && typeof value === "object") {
      for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
        if (typeof entry === "number") rows.push([`${name} [${key}]`, name.includes("@") ? percent(entry) : String(entry)]);
      }
    }
  }
  rows.push(["mean reward", summary.metrics.reward.mean.toFixed(3)]);
  for (const [name, value] of Object.entries(summary.metrics.signals)) rows.push([`signal ${name}`, value.toFixed(3)]);
  rows.push(["errors", `${summary.errors.infra} infra (not scored), ${summary.errors.model} model (scored wrong)`]);
  rows.push(["tokens", `${summary.tokens.prompt} prompt + ${summary.tokens.completion} completion`]);
  rows.push(["latency", `p50 ${(summary.latency.p50Ms / 1000).toFixed(2)}s, p95 ${(summary.latency.p95Ms / 1000).toFixed(2)}s`]);
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join("\n");
}
