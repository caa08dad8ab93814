import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rerankMetrics, rerankOutcome, type RerankOutcome } from "../../src/tournament/rerank-metrics.js";
import type { Selection } from "../../src/tournament/tournament-record.js";

interface StatusCase {
  name: string;
  tasksExpected: number;
  outcomes: Array<{ isCorrect?: boolean; judgeCalls: number; parseErrors: number }>;
  status: string;
  rerankAt1: number | null;
}
const statusCases = JSON.parse(readFileSync(new URL("./fixtures/rerank-status-cases.json", import.meta.url), "utf8")) as StatusCase[];

const outcome = (fields: Partial<RerankOutcome>): RerankOutcome => ({
  method: "v1",
  isCorrect: undefined,
  judgeCalls: 0,
  judgeTokens: 0,
  parseErrors: 0,
  verdictTies: 0,
  tieBreak: false,
  ...fields,
});

describe("rerankMetrics", () => {
  it("sums judge cost, parse errors, verdict ties and tie-break picks per method", () => {
    const metrics = rerankMetrics(
      [
        outcome({ isCorrect: true, judgeCalls: 16, judgeTokens: 100, parseErrors: 2, verdictTies: 3 }),
        outcome({ isCorrect: false, judgeCalls: 16, judgeTokens: 50, verdictTies: 1, tieBreak: true }),
        outcome({ method: "pointwise", isCorrect: true, judgeCalls: 8, judgeTokens: 10 }),
      ],
      { methods: ["v1", "pointwise"], tasksExpected: 2, rerankErrors: { pointwise: 1 } },
    );
    expect(metrics.v1).toEqual({
      status: "scored",
      tasksExpected: 2,
      tasksReranked: 2,
      rerankErrors: 0,
      "rerank@1": 0.5,
      judgeCalls: 32,
      judgeTokens: 150,
      parseErrors: 2,
      parseErrorRate: 2 / 32,
      verdictTies: 4,
      tieBreaks: 1,
    });
    expect(metrics.pointwise).toMatchObject({ status: "incomplete", tasksReranked: 1, rerankErrors: 1, "rerank@1": 1 });
  });

  it.each(statusCases)("$name", ({ tasksExpected, outcomes, status, rerankAt1 }) => {
    const metrics = rerankMetrics(outcomes.map((fields) => outcome(fields)), { methods: ["v1"], tasksExpected });
    expect(metrics.v1!.status).toBe(status);
    expect(metrics.v1!["rerank@1"]).toBe(rerankAt1);
  });
});

describe("rerankOutcome", () => {
  it("counts parse errors over pairs and points, and ties only among readable verdicts", () => {
    const selection: Selection = {
      chosenIndex: 1,
      tieBreak: true,
      scores: [0.5, 0.5],
      judgeCalls: 4,
      rounds: 2,
      comparisons: [
        { round: 0, slotA: 0, slotB: 1, ratingA: null, ratingB: null, winner: "tie", parseError: true },
        { round: 1, slotA: 1, slotB: 0, ratingA: 6, ratingB: 6, winner: "tie", parseError: false },
        { round: 1, slotA: 0, slotB: 1, ratingA: 8, ratingB: 3, winner: "A", parseError: false },
      ],
      points: [{ round: 0, candidate: 0, rating: null, parseError: true }],
    };
    expect(rerankOutcome("v1", selection, false, 9)).toEqual({
      method: "v1",
      isCorrect: false,
      judgeCalls: 4,
      judgeTokens: 9,
      parseErrors: 2,
      verdictTies: 1,
      tieBreak: true,
    });
  });
});
