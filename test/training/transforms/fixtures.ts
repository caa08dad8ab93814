/** Builders for scored episodes with token-level steps, shared by the transform and export tests. */
import type { z } from "zod";
import { EpisodeSchema, type Episode } from "../../../src/core/episode.js";
import { scored, unscored } from "../../../src/core/score.js";
import type { StepSchema } from "../../../src/core/step.js";

/** The input shape of a Step, before zod fills the defaults. */
export type StepInput = z.input<typeof StepSchema>;

/** A step sampled with prompt ids `prompt` and completion ids `completion` (logprob −0.1·k per token). */
export function tokenStep(prompt: number[] | undefined, completion: number[] | undefined, logprobs?: number[]): StepInput {
  return {
    input: [{ role: "user", content: "q" }],
    output: "a",
    promptTokenIds: prompt,
    completionTokenIds: completion,
    logprobs: logprobs ?? completion?.map((_, index) => -0.1 * (index + 1)),
  };
}

/** A one-trajectory episode of `taskId` with the given steps and reward. */
export function scoredEpisode(
  taskId: string,
  attempt: number,
  reward: number | null,
  steps: StepInput[],
  options: { name?: string; errorClass?: "infra_error" | "model_error"; target?: string } = {},
): Episode {
  return EpisodeSchema.parse({
    id: `${taskId}:${attempt}`,
    taskId,
    attempt,
    score: reward === null ? unscored("not scored") : scored(reward, reward === 1),
    errorClass: options.errorClass ?? null,
    ...(options.target !== undefined ? { target: options.target } : {}),
    trajectories: [{ name: options.name ?? "solver", steps, reward }],
  });
}
