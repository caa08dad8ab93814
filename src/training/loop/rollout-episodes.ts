/** Runs `groupSize` rollouts of each task with the current policy, every model call traced by the gateway under its episode's session. */
import pLimit from "p-limit";
import type { Limited } from "./priority-limit.js";
import type { Cookbook } from "../../core/cookbook.js";
import type { RunResources } from "../../core/run-resources.js";
import type { Episode } from "../../core/episode.js";
import type { Task } from "../../core/task.js";
import { runEpisode, EpisodeCancelledError } from "../../engine/run-episode.js";
import { createOpenAiClient } from "../../llm/openai-client.js";
import type { SamplingParams } from "../../core/llm-client.js";
import type { Gateway } from "../../gateway/gateway-server.js";
import { attachGatewaySteps } from "./attach-gateway-steps.js";

export interface RolloutOptions {
  cookbook: Cookbook;
  gateway: Gateway;
  /** The model name each episode's calls ask for, or a function giving it as the episode starts (a pinned version). */
  model: string | (() => string);
  sampling: SamplingParams;
  /** Seed of this batch: each episode samples with a seed derived from it, its task and attempt. */
  seed: number;
  attempts: number;
  concurrency: number;
  /** Shared by several calls (the async loop's groups), so `concurrency` bounds them together; absent: one of its own. */
  limit?: Limited;
  timeoutMs: number;
  signal: AbortSignal;
  /** The run's sandbox and pools, lent to every flow and evaluator. */
  resources: RunResources;
  /** Session ids are `<prefix>/<episode id>`, so steps and validation runs never share a session. */
  sessionPrefix: string;
  /** Called as each episode finishes, with the count done and the batch's size (a validation's progress line). */
  onEpisodeDone?: (done: number, total: number) => void;
}

/** The scored episodes of every (task, attempt), in task then attempt order. */
export async function rolloutEpisodes(tasks: readonly Task[], options: RolloutOptions): Promise<Episode[]> {
  const limit: Limited = options.limit ?? pLimit(options.concurrency);
  const total = tasks.length * options.attempts;
  let done = 0;
  const jobs = tasks.flatMap((task) =>
    Array.from({ length: options.attempts }, (_, attempt) =>
      limit(async () => {
        const sessionId = `${options.sessionPrefix}/${task.id}:${attempt}`;
        const client = createOpenAiClient({
          baseUrl: options.gateway.sessionUrl(sessionId),
          model: typeof options.model === "string" ? options.model : options.model(),
          retryPolicy: { maxRetries: 2, baseDelayMs: 200, maxDelayMs: 2_000 },
        });
        try {
          const episode = await runEpisode(task, attempt, {
            cookbook: options.cookbook,
            client,
            sampling: options.sampling,
            seed: options.seed,
            timeoutMs: options.timeoutMs,
            runSignal: options.signal,
            resources: options.resources,
          });
          const attached = attachGatewaySteps(episode, options.gateway.steps(sessionId));
          done += 1;
          options.onEpisodeDone?.(done, total);
          return attached;
        } finally {
          options.gateway.deleteSession(sessionId);
        }
      }),
    ),
  );
  try {
    return await Promise.all(jobs);
  } catch (error) {
    if (error instanceof EpisodeCancelledError) throw new Error("training interrupted");
    throw error;
  }
}
