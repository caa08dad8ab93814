/** The Episode: one (task, attempt) run, its trajectories, its score and everything needed to train on it later. */
import { z } from "zod";
import { TrajectorySchema } from "./trajectory.js";
import { TokenUsageSchema } from "./step.js";

export const TerminationReasonSchema = z.enum([
  "done",
  "max_turns",
  "max_tokens",
  "timeout",
  "cancelled",
  "error",
]);
export type TerminationReason = z.infer<typeof TerminationReasonSchema>;

/** infra_error: we could not get an answer (network, 5xx, retries spent); model_error: we got one and it was unusable. */
export const ErrorClassSchema = z.enum(["infra_error", "model_error"]);
export type ErrorClass = z.infer<typeof ErrorClassSchema>;

export const EpisodeSchema = z.object({
  /** `<taskId>:<attempt>` */
  id: z.string(),
  taskId: z.string(),
  attempt: z.number().int().nonnegative(),
  trajectories: z.array(TrajectorySchema).default([]),
  reward: z.number().nullable().default(null),
  isCorrect: z.boolean().default(false),
  /** Flow-level outputs: the answer, accessed tables, a tournament record... */
  artifacts: z.record(z.string(), z.unknown()).default({}),
  signals: z.record(z.string(), z.number()).default({}),
  terminationReason: TerminationReasonSchema.default("done"),
  timings: z.record(z.string(), z.number()).default({}),
  usage: TokenUsageSchema.default({ promptTokens: 0, completionTokens: 0 }),
  errorClass: ErrorClassSchema.nullable().default(null),
  error: z.string().nullable().default(null),
});
export type Episode = z.infer<typeof EpisodeSchema>;

/** The id the engine gives the episode of `attempt` on `taskId`. */
export function episodeId(taskId: string, attempt: number): string {
  return `${taskId}:${attempt}`;
}
