/** The progress line of an eval set: the totals over its cells, the set's spend, and each cell's done/total. */
import { ProgressBar, type ProgressCounts } from "./progress-bar.js";

/** Keeps each cell's latest counts and renders them as one line. */
export class SetProgress {
  private readonly cells = new Map<string, ProgressCounts>();
  private readonly bar: ProgressBar;

  /** `labels` in table order; `spent` is the set's spend so far (every cell, judge calls included) when priced. */
  constructor(
    private readonly labels: readonly string[],
    private readonly spent?: () => number,
    stream?: NodeJS.WriteStream,
  ) {
    this.bar = new ProgressBar("set", stream);
  }

  /** A cell's counts changed. */
  report(label: string, counts: ProgressCounts): void {
    this.cells.set(label, { ...counts });
    this.bar.update(this.totals());
  }

  /** Renders the final line and ends it. */
  finish(): void {
    this.bar.update(this.totals(), true);
    this.bar.finish();
  }

  /** The sums over the cells, with `label done/total` per cell (`-` for a cell not started yet). */
  totals(): ProgressCounts {
    const totals: ProgressCounts = { done: 0, total: 0, skipped: 0, correct: 0, scored: 0, infraErrors: 0, modelErrors: 0, retries: 0 };
    let cacheHits: number | undefined;
    for (const counts of this.cells.values()) {
      for (const key of ["done", "total", "skipped", "correct", "scored", "infraErrors", "modelErrors", "retries"] as const) totals[key] += counts[key];
      if (counts.cacheHits !== undefined) cacheHits = (cacheHits ?? 0) + counts.cacheHits;
      // Cells of one endpoint share its limiter; the line shows the busiest.
      if (counts.limiter && (!totals.limiter || counts.limiter.requestsPerMinute > totals.limiter.requestsPerMinute)) totals.limiter = counts.limiter;
    }
    if (cacheHits !== undefined) totals.cacheHits = cacheHits;
    if (this.spent) totals.spent = this.spent();
    totals.detail = this.labels
      .map((label) => {
        const counts = this.cells.get(label);
        return `${label} ${counts ? `${counts.done}/${counts.total}` : "-"}`;
      })
      .join(", ");
    return totals;
  }
}
