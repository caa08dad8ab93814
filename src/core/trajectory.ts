/** A Trajectory: the steps of one role (solver, judge...) within an episode. */
import { z } from "zod";
import { StepSchema } from "./step.js";

export const TrajectorySchema = z.object({
  /** The role; transforms group trajectories by `<taskId>:<name>`. */
  name: z.string().default("solver"),
  steps: z.array(StepSchema).default([]),
  /**
   * The reward training optimises. The one rule: a flow may set it (a judge's joint reward); otherwise it is the
   * episode's scored `Score.value`, filled in by runEpisode; it stays null while the episode is unscored.
   */
  reward: z.number().nullable().default(null),
  /** What the trajectory produced (the final answer text, a chosen index...). */
  output: z.unknown().optional(),
  signals: z.record(z.string(), z.number()).default({}),
  info: z.record(z.string(), z.unknown()).default({}),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;
