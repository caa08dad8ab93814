import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/random.js";
import type { JudgeRequest, JudgeVerdict } from "../../src/tournament/selection-process.js";
import { runSelectionSync } from "../../src/tournament/selection-process.js";
import { usefulJudgeCalls } from "../../src/tournament/useful-judge-calls.js";
import { V1OptionsSchema, v1Infer } from "../../src/tournament/v1-infer.js";

// A judge that always rates A higher: no tie ever settles a pair, so only the design can end the tournament.
const judge = (request: JudgeRequest): JudgeVerdict => {
  if (request.type !== "pair") throw new Error("pairwise only");
  return { type: "pair", ratingA: 8, ratingB: 3, winner: "A", parseError: false };
};

describe("usefulJudgeCalls", () => {
  it.each([2, 3, 4, 5, 8, 9])("is where V1 without repeated pairs, judging both slot orders, runs out of questions for %i candidates", (count) => {
    // A budget far above it: the tournament ends on its own, with every pair judged once in each order.
    const process = v1Infer(count, 100_000, V1OptionsSchema.parse({ swissRepeats: "forbid" }), "both", createRng(count));
    const selection = runSelectionSync(process, judge);
    expect(selection.judgeCalls).toBe(usefulJudgeCalls(count));
    const ordered = new Set(selection.comparisons.map((record) => `${record.slotA}>${record.slotB}`));
    expect(ordered.size).toBe(usefulJudgeCalls(count));
  });
});
