// A FinQA reply to a free-text gold answer, with no judge to read it: `rllm eval` and `rllm grade` must agree that it is
// unscored: not a wrong answer (eval used to score it 0 and count it), not an infrastructure error (grade used to).
import { afterAll, describe, expect, it } from "vitest";
import { createFinqaEvaluator } from "../../../cookbooks/finqa/finqa-evaluator.js";
import { EpisodeSchema } from "../../../src/core/episode.js";
import { replyEpisode } from "../../helpers/reply-episode.js";
import { gradeFinqaRow } from "../../../verifiers/finqa/finqa-grade-verifier.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const reply = "FINAL ANSWER: up 20%";
const groundTruth = "Revenue rose from $10 million to $12 million, up 20%.";

describe("a FinQA reply whose gold answer is free text, without a judge", () => {
  it("is unscored by the rllm eval evaluator", async () => {
    const task = { id: "t1", instruction: "How did revenue change?", metadata: { ground_truth: groundTruth, question: "How did revenue change?" } };
    const episode = replyEpisode("t1", reply);
    const score = await createFinqaEvaluator()(task, episode, testRun.evaluatorContext());
    expect(score).toMatchObject({ status: "unscored", isCorrect: false, value: 0 });
  });

  it("is unscored, and not an infrastructure error, for rllm grade", () => {
    const score = gradeFinqaRow({ response: reply, ground_truth: groundTruth }, 0.1) as unknown as Record<string, unknown>;
    expect(score).toMatchObject({ status: "unscored", isCorrect: false, value: 0 });
    expect(score.infraError).toBeUndefined();
    expect((score.signals as Record<string, number> | undefined)?.infraError).toBeUndefined();
  });

  it("gets the same Score on both paths", async () => {
    const task = { id: "t1", instruction: "q", metadata: { ground_truth: groundTruth } };
    const episode = EpisodeSchema.parse({ id: "t1:0", taskId: "t1", attempt: 0, trajectories: [{ name: "solver", steps: [{ input: [], output: reply }] }] });
    const evaluated = await createFinqaEvaluator()(task, episode, testRun.evaluatorContext());
    const graded = gradeFinqaRow({ response: reply, ground_truth: groundTruth }, 0.1);
    expect({ ...evaluated, signals: {} }).toEqual({ ...graded, signals: {} });
  });
});
