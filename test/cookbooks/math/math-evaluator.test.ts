import { afterAll, describe, expect, it } from "vitest";
import { evaluateMathEpisode } from "../../../cookbooks/math/math-evaluator.js";
import type { Episode } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const task: Task = { id: "t1", instruction: "What is 1 + 1?", metadata: { ground_truth: "2" } };
const episodeWith = (output: string): Episode => ({
  id: "t1:0",
  taskId: "t1",
  attempt: 0,
  trajectories: [{ name: "solver", steps: [], reward: null, output, signals: {}, info: {} }],
  score: { value: 0, isCorrect: false, status: "unscored", signals: {} },
  artifacts: {},
  signals: {},
  terminationReason: "done",
  timings: {},
  usage: { promptTokens: 0, completionTokens: 0 },
  errorClass: null,
  error: null,
});

describe("evaluateMathEpisode", () => {
  it.each(["\\boxed{\\sqrt\\}", "\\boxed{2^\\}"])("scores %s as a wrong answer, not an infrastructure error (issue #29)", async (output) => {
    const score = await evaluateMathEpisode(task, episodeWith(output), testRun.evaluatorContext());
    expect(score).toMatchObject({ status: "scored", isCorrect: false, value: 0 });
  });

  it("still gives the gold answer full marks", async () => {
    expect(await evaluateMathEpisode(task, episodeWith("\\boxed{2}"), testRun.evaluatorContext())).toMatchObject({ status: "scored", isCorrect: true, value: 1 });
  });
});
