/** The ground truth of a task, as the engine records it on each episode. */
import { TargetSchema, type Target } from "./episode.js";
import type { Task } from "./task.js";

/** `metadata.ground_truth` when it is a string, a number or a list of them; undefined otherwise (code tasks carry tests instead). */
export function taskTarget(task: Task): Target | undefined {
  const parsed = TargetSchema.safeParse(task.metadata.ground_truth);
  return parsed.success ? parsed.data : undefined;
}
