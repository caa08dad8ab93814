import { describe, expect, it } from "vitest";
import { ProgressBar, type ProgressCounts } from "../../src/cli/progress-bar.js";

/** A non-terminal stream that keeps what was written. */
function recordingStream() {
  const lines: string[] = [];
  return { lines, stream: { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream };
}
const counts: ProgressCounts = { done: 5, total: 10, skipped: 0, correct: 3, scored: 5, infraErrors: 0, modelErrors: 0, retries: 1 };

describe("ProgressBar", () => {
  it("shows the running cost, the current rate with the time waited, and cache hits when they are in use", () => {
    const { lines, stream } = recordingStream();
    new ProgressBar("qa", stream).update({ ...counts, spent: 0.01234, limiter: { requestsPerMinute: 118.4, waitedMs: 12_000 }, cacheHits: 4 }, true);
    expect(lines[0]).toMatch(/\| \$0\.0123 \| 118 req\/min, waited 12s \| cached 4 \|/);
  });

  it("shows each rerank method's tournaments, judge calls and rerank@1 so far", () => {
    const { lines, stream } = recordingStream();
    const rerank = [
      { method: "v1", reranked: 12, tasks: 100, judgeCalls: 192, correct: 7 },
      { method: "knockout", reranked: 0, tasks: 100, judgeCalls: 0, correct: 0 },
    ];
    new ProgressBar("arith", stream).update({ ...counts, rerank }, true);
    expect(lines[0]).toContain("| v1 12/100 tasks, 192 judge calls rerank@1 58.3%, knockout 0/100 tasks, 0 judge calls |");
  });

  it("leaves them out when no prices, limits or cache are in use", () => {
    const { lines, stream } = recordingStream();
    new ProgressBar("qa", stream).update(counts, true);
    expect(lines[0]).not.toMatch(/\$|req\/min|cached|judge calls/);
  });
});
