import { afterAll, describe, expect, it } from "vitest";
import { arithQuestion, arithSplitOf, generateArithProblem, operationsInOrder, solveArith } from "../../../benchmarks/arith/arith-problem.js";
import { arithBenchmark } from "../../../benchmarks/arith/index.js";
import { arithCookbook } from "../../../cookbooks/arith/index.js";
import type { Episode } from "../../../src/core/episode.js";
import { EpisodeSchema } from "../../../src/core/episode.js";
import { createRng } from "../../../src/core/random.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const home = "/nonexistent-rllm-home";

function episodeWith(taskId: string, output: string): Episode {
  return EpisodeSchema.parse({ id: `${taskId}:0`, taskId, attempt: 0, trajectories: [{ name: "solver", output }] });
}

describe("arith benchmark", () => {
  it("refuses operands and operators whose counts do not fit one expression", () => {
    expect(() => operationsInOrder([1, 2], ["+", "*"], () => 0)).toThrow("2 operators need 3 operands, not 2");
  });

  it("generates the same tasks every time, with test and train never sharing a problem", async () => {
    const test = await arithBenchmark.loadTasks({ home });
    const again = await arithBenchmark.loadTasks({ home, split: "test" });
    const train = await arithBenchmark.loadTasks({ home, split: "train" });
    expect(test).toHaveLength(100);
    expect(train).toHaveLength(2000);
    expect(again).toEqual(test);
    const testExpressions = new Set(test.map((task) => task.metadata.expression));
    expect(testExpressions.size).toBe(100);
    expect(train.some((task) => testExpressions.has(task.metadata.expression))).toBe(false);
    expect(test.every((task) => arithSplitOf(String(task.metadata.expression)) === "test")).toBe(true);
  });

  it("draws the rl split from the held-out side the model never trained on, never from the test problems", async () => {
    const rl = await arithBenchmark.loadTasks({ home, split: "rl" });
    const test = new Set((await arithBenchmark.loadTasks({ home, split: "test" })).map((task) => task.metadata.expression));
    const train = new Set((await arithBenchmark.loadTasks({ home, split: "train" })).map((task) => task.metadata.expression));
    expect(rl).toHaveLength(500);
    expect(new Set(rl.map((task) => task.metadata.expression)).size).toBe(500);
    for (const task of rl) {
      expect(arithSplitOf(String(task.metadata.expression))).toBe("test");
      expect(test.has(task.metadata.expression)).toBe(false);
      expect(train.has(task.metadata.expression)).toBe(false);
    }
    expect(rl[0]!.id).toBe("arith-rl-0001");
  });

  it("stores answers that match JavaScript's own evaluation of the expression", async () => {
    for (const task of await arithBenchmark.loadTasks({ home })) {
      const value = Function(`return ${task.metadata.expression}`)() as number;
      expect(String(value)).toBe(task.metadata.ground_truth);
      expect(task.instruction).toBe(arithQuestion(String(task.metadata.expression)));
    }
  });

  it("writes products before sums in its steps and carries a slipped step on", () => {
    expect(solveArith([12, 7, 3], ["+", "*"]).steps).toEqual(["7*3=21", "12+21=33"]);
    expect(solveArith([12, 7, 3], ["+", "*"], { stepIndex: 0, delta: 1 }).steps).toEqual(["7*3=22", "12+22=34"]);
    const problem = generateArithProblem(createRng(1));
    expect(problem.steps.length).toBeGreaterThanOrEqual(1);
  });

  it("rejects an unknown split", async () => {
    await expect(arithBenchmark.loadTasks({ home, split: "dev" })).rejects.toThrow(/unknown split "dev" \(use train, test or rl\)/);
  });
});

describe("arith cookbook", () => {
  it("gives the gold answer full marks and a near miss none", async () => {
    const task = (await arithBenchmark.loadTasks({ home }))[0]!;
    const gold = String(task.metadata.ground_truth);
    const right = await arithCookbook.evaluate(task, episodeWith(task.id, `steps \\boxed{${gold}}`), testRun.evaluatorContext());
    const wrong = await arithCookbook.evaluate(task, episodeWith(task.id, `steps \\boxed{${Number(gold) + 1}}`), testRun.evaluatorContext());
    const none = await arithCookbook.evaluate(task, episodeWith(task.id, "no answer"), testRun.evaluatorContext());
    expect([right.isCorrect, right.value]).toEqual([true, 1]);
    expect([wrong.isCorrect, wrong.value]).toEqual([false, 0]);
    expect(none.isCorrect).toBe(false);
  });

  it("extracts the last boxed integer for majority voting", async () => {
    const task = (await arithBenchmark.loadTasks({ home }))[0]!;
    expect(arithCookbook.extractAnswer!(task, episodeWith(task.id, "\\boxed{3} \\boxed{-07}"))).toBe("-7");
    expect(arithCookbook.extractAnswer!(task, episodeWith(task.id, "\\boxed{x}"))).toBeUndefined();
  });
});
