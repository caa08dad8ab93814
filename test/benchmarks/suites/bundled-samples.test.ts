/**
 * Every bundled sample of the paper suites loads and grades its reference answers as correct; the code suites' reference
 * solutions run in code-samples.sdk.test.ts (their tests import numpy, from the pinned "parity" environment).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Episode, Task } from "../../../src/core/index.js";
import { benchmarks } from "../../../benchmarks/registry.js";
import { cookbooks } from "../../../cookbooks/registry.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const home = mkdtempSync(path.join(os.tmpdir(), "rllm-suites-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** An episode whose one trajectory answered `text`. */
function answered(task: Task, text: string): Episode {
  return {
    id: `${task.id}:0`,
    task,
    trajectories: [{ name: "solver", steps: [], reward: null, output: text, signals: {}, info: {} }],
    isCorrect: null,
    terminationReason: "env_done",
    metrics: {},
    info: {},
  } as unknown as Episode;
}

const mathSuites = ["aime24", "aime25", "hmmt25", "math500", "gsm8k"];

describe("the math suites' samples", () => {
  it.each(mathSuites)("%s: every reference answer scores 1 through the prompted-math cookbook, and a near miss 0", async (name) => {
    const benchmark = await benchmarks.load(name);
    const cookbook = await cookbooks.load(benchmark.defaultCookbook);
    const tasks = await benchmark.loadTasks({ home });
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) {
      const truth = String(task.metadata.ground_truth);
      const reply = name === "gsm8k" ? `Working it out.\nThe final answer is ${truth}` : `Reasoning…\n\\boxed{${truth}}`;
      expect((await cookbook.evaluate(task, answered(task, reply), testRun.evaluatorContext())).value, `${task.id}: ${truth}`).toBe(1);
      expect((await cookbook.evaluate(task, answered(task, "\\boxed{123456789}"), testRun.evaluatorContext())).value, task.id).toBe(0);
    }
  });

  it("math500: the sample spans MATH's seven subjects and five levels, each row keeping MATH-500's fields", async () => {
    const tasks = await (await benchmarks.load("math500")).loadTasks({ home });
    const subjects = new Set(tasks.map((task) => task.metadata.subject));
    const levels = new Set(tasks.map((task) => task.metadata.level));
    expect([...subjects].sort()).toEqual(["Algebra", "Counting & Probability", "Geometry", "Intermediate Algebra", "Number Theory", "Prealgebra", "Precalculus"]);
    expect([...levels].sort()).toEqual([1, 2, 3, 4, 5]);
    for (const task of tasks) {
      // MATH-500's unique_id names the MATH test file the problem came from: test/<subject>/<n>.json.
      expect(task.id).toMatch(/^test\/[a-z_]+\/\d+\.json$/);
      expect(String(task.metadata.solution)).toContain("\\boxed{");
      expect(String(task.metadata.source)).toMatch(/MIT/);
    }
  });

  it("puts each benchmark's standard instruction around the problem", async () => {
    const [aime25] = await (await benchmarks.load("aime25")).loadTasks({ home });
    expect(aime25!.instruction).toMatch(/^Put your final answer within \\boxed\{\}\.\nThe answer is an integer between 0 and 999 inclusive\.\n\nFind the sum of all integer bases/);
    const [gsm8k] = await (await benchmarks.load("gsm8k")).loadTasks({ home });
    expect(gsm8k!.instruction).toMatch(/^Given the following problem, reason and give a final answer to the problem\.\nProblem: Janet/);
    expect(gsm8k!.instruction).toMatch(/Your response should end with "The final answer is \[answer\]" where \[answer\] is the response to the problem\.$/);
  });
});

describe("the multiple-choice samples", () => {
  it("mmlu-pro: the correct letter scores 1 in each standard form, another letter 0", async () => {
    const benchmark = await benchmarks.load("mmlu-pro");
    const cookbook = await cookbooks.load(benchmark.defaultCookbook);
    for (const task of await benchmark.loadTasks({ home })) {
      const correct = String(task.metadata.ground_truth);
      const wrong = correct === "A" ? "B" : "A";
      for (const reply of [`Let's think.\nThe answer is (${correct}).`, `\\boxed{${correct}}`, `**${correct}**`, `Answer: ${correct}`]) {
        expect((await cookbook.evaluate(task, answered(task, reply), testRun.evaluatorContext())).value, `${task.id}: ${reply}`).toBe(1);
      }
      expect((await cookbook.evaluate(task, answered(task, `The answer is (${wrong}).`), testRun.evaluatorContext())).value).toBe(0);
      expect(task.instruction).toMatch(/Think step by step and then finish your answer with "the answer is \(X\)"[\s\S]*\nAnswer: Let's think step by step\.$/);
    }
  });

  it("gpqa-diamond ships no rows and says how to get them", async () => {
    const benchmark = await benchmarks.load("gpqa-diamond");
    expect(benchmark.bundledSample).toBeUndefined();
    await expect(benchmark.loadTasks({ home })).rejects.toThrow(/ships no rows .*set HF_TOKEN and run `rllm dataset pull gpqa-diamond`/);
  });
});
