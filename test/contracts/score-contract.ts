// The Score contract every grader keeps, as one shared suite (the way Hono runs one suite for all its routers):
// the gold answer scores 1, a near miss scores 0, and a row nothing can grade is unscored (neither a 0 nor an infra error).
import { describe, expect, it } from "vitest";
import { ScoreSchema, type Score } from "../../src/core/score.js";

/** How a grader under test scores each of the three contract cases. */
export interface ScoreContractSubject {
  /** The grader's name in the test titles ("math grade verifier", "arith cookbook on arith"). */
  name: string;
  gold: () => Promise<Score>;
  nearMiss: () => Promise<Score>;
  ungradable: () => Promise<Score>;
  /** Per-case time limit for slow graders (sandboxes, worker pools). */
  timeoutMs?: number;
}

/** Registers the contract tests for one grader. */
export function runScoreContract(subject: ScoreContractSubject): void {
  describe(`${subject.name} keeps the Score contract`, () => {
    it("gives the gold answer a score of 1", async () => {
      const score = ScoreSchema.parse(await subject.gold());
      expect(score, score.explanation).toMatchObject({ status: "scored", isCorrect: true, value: 1 });
    }, subject.timeoutMs);

    it("gives a near miss a score of 0", async () => {
      const score = ScoreSchema.parse(await subject.nearMiss());
      expect(score, score.explanation).toMatchObject({ status: "scored", isCorrect: false, value: 0 });
    }, subject.timeoutMs);

    it("leaves an ungradable row unscored, with a reason, and not as an infrastructure error", async () => {
      const score = ScoreSchema.parse(await subject.ungradable());
      expect(score).toMatchObject({ status: "unscored", isCorrect: false, value: 0 });
      expect(score.explanation ?? "").not.toBe("");
      expect(score.signals.infraError).toBeUndefined();
    }, subject.timeoutMs);
  });
}
