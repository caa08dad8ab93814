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

  it("leaves them out when no prices, limits or cache are in use", () => {
    const { lines, stream } = recordingStream();
    new ProgressBar("qa", stream).update(counts, true);
    expect(lines[0]).not.toMatch(/\$|req\/min|cached/);
  });
});
