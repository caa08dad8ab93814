/** The progress line of long runs on stderr: done/total, rate, errors, running accuracy, retries, ETA, and cost, rate limits and cache hits when in use. */
import type { EvalProgress, RerankProgress } from "../evaluation/eval-progress.js";

/** What the progress line shows: an eval's counts, and a detail at the end of the line. */
export interface ProgressCounts extends EvalProgress {
  /** Shown at the end of the line (an eval set's per-cell counts). */
  detail?: string;
}

/** Renders at most ten times a second on a terminal; elsewhere (CI logs) one line per 10% or 15 s. */
export class ProgressBar {
  private readonly started = Date.now();
  private lastRender = 0;
  private lastLoggedTenth = -1;
  private lastLoggedDone = -1;
  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(counts: ProgressCounts, force = false): void {
    const now = Date.now();
    if (this.stream.isTTY) {
      if (!force && now - this.lastRender < 100) return;
      this.lastRender = now;
      this.stream.write(`\r\x1b[2K${this.format(counts, now)}`);
      return;
    }
    const tenth = Math.floor((counts.done / Math.max(1, counts.total)) * 10);
    const isNew = counts.done !== this.lastLoggedDone;
    if (isNew && (force || tenth > this.lastLoggedTenth || now - this.lastRender > 15_000)) {
      this.lastLoggedTenth = tenth;
      this.lastLoggedDone = counts.done;
      this.lastRender = now;
      this.stream.write(`${this.format(counts, now)}\n`);
    }
  }

  /** Ends the line on a terminal. */
  finish(): void {
    if (this.stream.isTTY) this.stream.write("\n");
  }

  private format(counts: ProgressCounts, now: number): string {
    const width = 24;
    const fraction = counts.total === 0 ? 1 : counts.done / counts.total;
    const filled = Math.round(fraction * width);
    const bar = "█".repeat(filled) + "░".repeat(width - filled);
    const seconds = (now - this.started) / 1000;
    const ranNow = counts.done - counts.skipped;
    const rate = seconds > 0 ? ranNow / seconds : 0;
    const eta = rate > 0 ? formatDuration((counts.total - counts.done) / rate) : "?";
    const accuracy = counts.scored > 0 ? `${((100 * counts.correct) / counts.scored).toFixed(1)}%` : "-";
    return (
      `${this.label} ${bar} ${counts.done}/${counts.total} | ${rate.toFixed(1)} ep/s | acc ${accuracy}` +
      ` | errors ${counts.infraErrors} infra, ${counts.modelErrors} model | retries ${counts.retries}` +
      (counts.spent !== undefined ? ` | $${counts.spent.toFixed(4)}` : "") +
      (counts.limiter ? ` | ${Math.round(counts.limiter.requestsPerMinute)} req/min, waited ${formatDuration(counts.limiter.waitedMs / 1000)}` : "") +
      (counts.cacheHits !== undefined ? ` | cached ${counts.cacheHits}` : "") +
      (counts.rerank ? ` | ${counts.rerank.map(formatRerank).join(", ")}` : "") +
      ` | ETA ${eta}` +
      (counts.detail ? ` | ${counts.detail}` : "")
    );
  }
}

// `v1 12/100 tasks, 192 judge calls, rerank@1 58.3%`: the tournaments so far, and how often they picked a right answer.
function formatRerank(rerank: RerankProgress): string {
  const accuracy = rerank.reranked > 0 ? ` rerank@1 ${((100 * rerank.correct) / rerank.reranked).toFixed(1)}%` : "";
  return `${rerank.method} ${rerank.reranked}/${rerank.tasks} tasks, ${rerank.judgeCalls} judge calls${accuracy}`;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${Math.round(seconds % 60)}s` : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
