/** A Trajectory: the steps of one role (solver, judge...) within an episode. */
import { z } from "zod";
import { StepSchema } from "./step.js";

export const TrajectorySchema = z.object({
  /** The role; transforms group trajectories by `<taskId>:<name>`. */
  name: z.string().default("solver"),
  steps: z.array(StepSchema).default([]),
  /** Trajectory-level reward; null until the evaluator fills it in. */
  reward: z.number().nullable().default(null),
  /** What the trajectory produced (the final answer text, a chosen index...). */
  output: z.unknown().optional(),
  signals: z.record(z.string(), z.number()).default({}),
  info: z.record(z.string(), z.unknown()).default({}),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;
