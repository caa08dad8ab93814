import { describe, expect, it } from "vitest";
import type { ProgressCounts } from "../../src/cli/progress-bar.js";
import { SetProgress } from "../../src/cli/set-progress.js";

const counts = (done: number, total: number, correct: number): ProgressCounts => ({ done, total, skipped: 0, correct, scored: done, infraErrors: 0, modelErrors: 0, retries: 0 });

describe("SetProgress", () => {
  it("sums the cells, shows the set's spend and each cell's done/total (- before a cell reports)", () => {
    const written: string[] = [];
    const stream = { isTTY: false, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const progress = new SetProgress(["a__qa", "b__qa", "c__qa"], () => 0.5, stream);
    progress.report("a__qa", counts(4, 8, 4));
    progress.report("b__qa", counts(2, 8, 0));
    const totals = progress.totals();
    expect(totals).toMatchObject({ done: 6, total: 16, correct: 4, scored: 6, spent: 0.5 });
    progress.finish();
    expect(written.at(-1)).toMatch(/^set .* 6\/16 \| .*acc 66\.7% .*\| \$0\.5000 \|.*\| a__qa 4\/8, b__qa 2\/8, c__qa -\n$/);
  });
});
