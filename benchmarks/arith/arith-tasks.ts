/** The arith splits as Tasks: a fixed seed per split, unique expressions, and a hash split so train and test never share a problem. */
import type { Task } from "../../src/core/task.js";
import { seededRandom } from "../../src/models/tiny/random.js";
import { arithQuestion, arithSplitOf, generateArithProblem } from "./arith-problem.js";

/** Size and seed of each split. */
export const ARITH_SPLITS = {
  train: { size: 2000, seed: 2027 },
  test: { size: 100, seed: 2026 },
} as const;
export type ArithSplit = keyof typeof ARITH_SPLITS;

/** The tasks of `split`: `{id: "arith-<split>-0001", instruction: question, metadata: {expression, ground_truth, split}}`. */
export function arithTasks(split: ArithSplit): Task[] {
  const { size, seed } = ARITH_SPLITS[split];
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const tasks: Task[] = [];
  while (tasks.length < size) {
    const problem = generateArithProblem(random);
    if (arithSplitOf(problem.expression) !== split || seen.has(problem.expression)) continue;
    seen.add(problem.expression);
    tasks.push({
      id: `arith-${split}-${String(tasks.length + 1).padStart(4, "0")}`,
      instruction: arithQuestion(problem.expression),
      metadata: { expression: problem.expression, ground_truth: String(problem.answer), split },
    });
  }
  return tasks;
}
