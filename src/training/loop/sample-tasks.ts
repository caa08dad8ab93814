/** Draws the tasks of one training step: a seeded sample without replacement, so a resumed run draws the same ones. */
import type { Task } from "../../core/task.js";
import { shuffled, type Rng } from "../../core/random.js";

/** `count` distinct tasks (all of them when there are fewer). */
export function sampleTasks(tasks: readonly Task[], count: number, random: Rng): Task[] {
  return shuffled(tasks, random).slice(0, count);
}
