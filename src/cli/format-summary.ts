/** The summary table printed at the end of `rllm eval`, and the per-method rerank report both eval and rerank print. */
import type { RerankMethodSummary } from "../metrics/rerank-method-summary.js";
import { failedParseErrorShare } from "../metrics/rerank-method-summary.js";
import { infraErrorRate } from "../metrics/infra-error-rate.js";
import type { RunSummary } from "../metrics/summarize-run.js";

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

/**
 * Lines of the table: accuracy with stderr and interval, pass@k, maj@k, extra metrics, errors, tokens, latency.
 * With no scored episode (every one an infra error) there is no accuracy to show, and a 0% would read as a result.
 */
export function formatSummary(summary: RunSummary): string {
  const { accuracy } = summary.metrics;
  const rows: [string, string][] = [
    ["tasks × attempts", `${summary.counts.tasks} × ${summary.counts.attemptsPerTask} (${summary.counts.scored} scored, ${summary.counts.unscored} unscored)`],
  ];
  if (summary.counts.scored === 0) {
    const infra = summary.errors.infra;
    rows.push(["accuracy", `no scored episodes${infra > 0 ? ` (${infra} infra errors; --resume retries them)` : ""}`]);
    rows.push(...tailRows(summary));
    return formatRows(rows);
  }
  rows.push(["accuracy", `${percent(accuracy.mean)} ± ${percent(accuracy.stderr)} (95% CI ${percent(accuracy.ci95[0])}–${percent(accuracy.ci95[1])})`]);
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
  for (const [method, result] of Object.entries(summary.rerank ?? {})) {
    if (result.status !== "scored") rows.push([`rerank [${method}]`, result.status === "failed" ? "FAILED (see stderr)" : `INCOMPLETE ${result.tasksReranked}/${result.tasksExpected} tasks`]);
  }
  rows.push(["mean reward", summary.metrics.reward.mean.toFixed(3)]);
  for (const [name, value] of Object.entries(summary.metrics.signals)) rows.push([`signal ${name}`, value.toFixed(3)]);
  rows.push(...tailRows(summary));
  return formatRows(rows);
}

/** Errors and tokens, and the latency of scored episodes when there are any (it is measured over those only). */
function tailRows(summary: RunSummary): [string, string][] {
  const rows: [string, string][] = [
    ["errors", `${summary.errors.infra} infra (${percent(summaryInfraRate(summary))} of episodes, not scored), ${summary.errors.model} model (scored wrong)`],
    ["tokens", `${summary.tokens.prompt} prompt + ${summary.tokens.completion} completion`],
  ];
  if (summary.counts.scored > 0) rows.push(["latency", `p50 ${(summary.latency.p50Ms / 1000).toFixed(2)}s, p95 ${(summary.latency.p95Ms / 1000).toFixed(2)}s`]);
  if (summary.cache) rows.push(["cached calls", `${summary.cache.cachedCalls} (in ${summary.cache.episodesWithCachedCalls} episodes, left out of the latency)`]);
  if (summary.cost) {
    const saved = summary.cost.cachedCalls > 0 ? `, $${summary.cost.savedByCache.toFixed(4)} saved by the cache` : "";
    const judge = summary.cost.byRole.judge !== undefined ? `, $${summary.cost.byRole.judge.toFixed(4)} of it judge calls` : "";
    rows.push(["cost", `$${summary.cost.total.toFixed(4)} ($${summary.cost.perEpisode.toFixed(6)} per episode${judge}${saved})`]);
  }
  return rows;
}

function formatRows(rows: readonly [string, string][]): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join("\n");
}

/**
 * One line for a method's rerank: rerank@1 (or why there is none), coverage, judge calls, parse errors and ties.
 * `unit` names what was reranked ("tasks", "rows").
 */
export function formatRerankMethod(method: string, result: RerankMethodSummary, unit: string): string {
  const judging = `judge calls ${result.judgeCalls} · parse errors ${result.parseErrors} (${percent(result.parseErrorRate)}) · verdict ties ${result.verdictTies} · tie-break picks ${result.tieBreaks}`;
  const coverage = `${result.tasksReranked}/${result.tasksExpected} ${unit}${result.rerankErrors > 0 ? ` (${result.rerankErrors} failed on the endpoint)` : ""}`;
  if (result.status === "failed") {
    return `${method}: FAILED, ${result.parseErrors} of ${result.judgeCalls} judge verdicts unparsable (more than ${percent(failedParseErrorShare)}): no rerank@1 · ${coverage} · ${judging}`;
  }
  const score = result["rerank@1"] === null ? "rerank@1 n/a (no labels)" : `rerank@1 ${result["rerank@1"].toFixed(4)}`;
  const incomplete = result.status === "incomplete" ? "INCOMPLETE, " : "";
  return `${method}: ${incomplete}${score} · ${coverage} · ${judging}`;
}

/** The run's infra-error rate: summary.json's own figure, or from its counts in a file written before it had one. */
export function summaryInfraRate(summary: RunSummary): number {
  return summary.errors.infraRate ?? infraErrorRate(summary.errors.infra, summary.counts.episodes);
}
