/** The arith splits as Tasks: a fixed seed per split, unique expressions, and a hash split so train and test never share a problem. */
import { createRng, type Task } from "rllm-ts/core";
import { arithQuestion, arithSplitOf, generateArithProblem } from "./arith-problem.js";

/**
 * Size, seed and hash side of each split. `rl` holds problems the embedded model never saw in supervised training
 * (they sit on the held-out hash side, as the test problems do) and that are not test problems: prompts for RL, which
 * on the memorised train side mostly teaches the model its training set again. The held-out side has 790 problems.
 */
export const ARITH_SPLITS = {
  train: { size: 2000, seed: 2027, side: "train" },
  test: { size: 100, seed: 2026, side: "test" },
  rl: { size: 500, seed: 2028, side: "test" },
} as const;
export type ArithSplit = keyof typeof ARITH_SPLITS;

/** The tasks of `split`: `{id: "arith-<split>-0001", instruction: question, metadata: {expression, ground_truth, split}}`. */
export function arithTasks(split: ArithSplit): Task[] {
  const { size, seed, side } = ARITH_SPLITS[split];
  const random = createRng(seed);
  // The rl split shares the test side's hash bucket, so it leaves out the test problems themselves.
  const seen = new Set<string>(split === "rl" ? arithTasks("test").map((task) => String(task.metadata.expression)) : []);
  const tasks: Task[] = [];
  while (tasks.length < size) {
    const problem = generateArithProblem(random);
    if (arithSplitOf(problem.expression) !== side || seen.has(problem.expression)) continue;
    seen.add(problem.expression);
    tasks.push({
      id: `arith-${split}-${String(tasks.length + 1).padStart(4, "0")}`,
      instruction: arithQuestion(problem.expression),
      metadata: { expression: problem.expression, ground_truth: String(problem.answer), split },
    });
  }
  return tasks;
}
