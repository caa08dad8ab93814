/** The Episode: one (task, attempt) run, its trajectories, its target and score, and everything needed to train on it later. */
import { z } from "zod";
import { ScoreSchema } from "./score.js";
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

/** A task's ground truth as the benchmark gives it: one answer, or several accepted answers. */
export const TargetSchema = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]);
export type Target = z.infer<typeof TargetSchema>;

// The score of an episode no evaluator has scored (yet): an infra failure keeps it.
const notScored = { value: 0, isCorrect: false, status: "unscored", explanation: "not scored", signals: {} } as const;

const CurrentEpisodeSchema = z.object({
  /** `<taskId>:<attempt>` */
  id: z.string(),
  taskId: z.string(),
  attempt: z.number().int().nonnegative(),
  trajectories: z.array(TrajectorySchema).default([]),
  /** The task's ground truth (absent for tasks graded otherwise, such as code tests, and in episodes saved before targets were recorded). */
  target: TargetSchema.optional(),
  score: ScoreSchema.default({ ...notScored, signals: {} }),
  /** Flow-level outputs: the answer, accessed tables, a tournament record... */
  artifacts: z.record(z.string(), z.unknown()).default({}),
  /** Flow-level signals (the evaluator's are in `score.signals`). */
  signals: z.record(z.string(), z.number()).default({}),
  terminationReason: TerminationReasonSchema.default("done"),
  timings: z.record(z.string(), z.number()).default({}),
  usage: TokenUsageSchema.default({ promptTokens: 0, completionTokens: 0 }),
  errorClass: ErrorClassSchema.nullable().default(null),
  error: z.string().nullable().default(null),
});

/**
 * An episode, as written to episodes.jsonl. Lines saved before the Score existed (top-level `reward` and
 * `isCorrect`, the answer in `artifacts.grade`) are upgraded on the way in; see docs/file-formats.md.
 */
export const EpisodeSchema = z.preprocess(upgradeEpisodeLine, CurrentEpisodeSchema);
export type Episode = z.infer<typeof CurrentEpisodeSchema>;

/** The id the engine gives the episode of `attempt` on `taskId`. */
export function episodeId(taskId: string, attempt: number): string {
  return `${taskId}:${attempt}`;
}

/**
 * Old line → current shape: `reward`/`isCorrect` become `score`. An old episode counted as unscored when it had no
 * reward, failed for infrastructure reasons, or carried FinQA's `signals.unscored = 1`.
 */
function upgradeEpisodeLine(value: unknown): unknown {
  if (!isRecord(value) || "score" in value || !("reward" in value || "isCorrect" in value)) return value;
  const { reward, isCorrect, ...rest } = value;
  const { grade, ...artifacts } = isRecord(rest.artifacts) ? rest.artifacts : {};
  const gradeFields = isRecord(grade) ? grade : {};
  const signals = isRecord(rest.signals) ? rest.signals : {};
  const isUnscored = typeof reward !== "number" || rest.errorClass === "infra_error" || signals.unscored === 1;
  const score = {
    value: isUnscored ? 0 : reward,
    isCorrect: !isUnscored && isCorrect === true,
    status: isUnscored ? "unscored" : "scored",
    ...(typeof gradeFields.answer === "string" ? { answer: gradeFields.answer } : {}),
    ...(typeof gradeFields.explanation === "string" ? { explanation: gradeFields.explanation } : isUnscored ? { explanation: notScored.explanation } : {}),
  };
  return { ...rest, ...(isRecord(rest.artifacts) ? { artifacts } : {}), score };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
