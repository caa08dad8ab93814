/** Runs one (task, attempt) pair: the flow under a time limit, then the evaluator, then the score written back onto the episode. */
import { setMaxListeners } from "node:events";
import { EpisodeSchema, episodeId, type Episode } from "../core/episode.js";
import { ScoreSchema, scored, unscored } from "../core/score.js";
import { taskTarget } from "../core/task-target.js";
import type { Cookbook, EvaluatorContext } from "../core/cookbook.js";
import type { RunResources } from "../core/run-resources.js";
import type { Task } from "../core/task.js";
import type { Trajectory } from "../core/trajectory.js";
import { InfraError } from "../core/errors/infra-error.js";
import { ModelError } from "../core/errors/model-error.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import { EndpointConfigurationError } from "../core/errors/endpoint-configuration-error.js";
import { deriveSeed } from "../core/random.js";

export interface EpisodeRunOptions {
  cookbook: Cookbook;
  client: LlmClient;
  sampling: SamplingParams;
  /** Run seed; each episode samples with a seed derived from it, the task id and the attempt. */
  seed?: number;
  timeoutMs: number;
  /** The run's cancellation (Ctrl-C); an aborted episode is not recorded, so --resume runs it again. */
  runSignal: AbortSignal;
  /** The run's sandbox and pools, lent to the flow and the evaluator. */
  resources: RunResources;
}

/** Thrown when the run itself was cancelled while this episode ran. */
export class EpisodeCancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "EpisodeCancelledError";
  }
}

/** Runs and scores one episode. Model and infra failures become data on the episode; configuration errors and cancellation throw. */
export async function runEpisode(task: Task, attempt: number, options: EpisodeRunOptions): Promise<Episode> {
  const started = performance.now();
  const limit = episodeSignal(options.runSignal, options.timeoutMs);
  const signal = limit.signal;
  const sampling = options.seed === undefined ? options.sampling : { ...options.sampling, seed: deriveSeed(options.seed, task.id, attempt) };
  let episode: Episode | undefined;
  try {
    // Raced against the limit, so a flow that ignores its signal still ends on time.
    const produced = await limit.race(options.cookbook.flow(task, { client: options.client, sampling, attempt, signal, ...lent(options.resources) }));
    episode = toEpisode(produced, task.id, attempt);
    const target = taskTarget(task);
    if (target !== undefined) episode.target = target;
  } catch (error) {
    if (options.runSignal.aborted) throw new EpisodeCancelledError();
    if (error instanceof EndpointConfigurationError) throw error;
    // Built only for a failed flow: a successful one's episode comes from its own output.
    episode ??= emptyEpisode(task.id, attempt);
    if (limit.timedOut()) {
      // A limit reached is a wrong answer, as in inspect_ai: the model did not finish in time.
      episode.terminationReason = "timeout";
      episode.error = `episode exceeded ${options.timeoutMs} ms`;
    } else {
      recordFailure(episode, error, "flow");
    }
  } finally {
    limit.release();
  }
  const flowEnded = performance.now();
  if (episode.errorClass !== "infra_error") {
    await scoreEpisode(task, episode, options.cookbook, { ...lent(options.resources), signal: options.runSignal });
  }
  const ended = performance.now();
  episode.usage = sumUsage(episode);
  episode.timings = { ...episode.timings, flowMs: flowEnded - started, evaluateMs: ended - flowEnded, totalMs: ended - started };
  return episode;
}

/**
 * Calls the evaluator and records its Score on the episode; trajectories without a reward of their own get the
 * score's value, unless the episode is unscored (then they stay null and training leaves them out). A model
 * error or a timeout is a wrong answer whatever the evaluator said.
 */
async function scoreEpisode(task: Task, episode: Episode, cookbook: Cookbook, context: EvaluatorContext): Promise<void> {
  try {
    const score = ScoreSchema.parse(await cookbook.evaluate(task, episode, context));
    // The engine's own time limit (which records an error) makes a wrong answer; a flow that stopped its agent at the
    // task's time limit without error (a terminal task) has had its partial work graded, and that grade stands.
    const isUsable = episode.errorClass === null && !(episode.terminationReason === "timeout" && episode.error !== null);
    episode.score = isUsable ? score : scored(0, false, { ...score, explanation: episode.error ?? score.explanation });
    if (episode.score.status === "scored") {
      for (const trajectory of episode.trajectories) if (trajectory.reward === null) trajectory.reward = episode.score.value;
    }
    const comparable = isUsable ? cookbook.extractAnswer?.(task, episode) : undefined;
    if (comparable !== undefined) episode.artifacts.comparableAnswer = comparable;
  } catch (error) {
    recordFailure(episode, error, "evaluator");
  }
}

/** The run's sandbox and pools as a flow or an evaluator gets them. */
function lent(resources: RunResources): RunResources {
  return { sandbox: resources.sandbox, pool: (definition) => resources.pool(definition) };
}

/** InfraError → excluded from scores; ModelError → scored as wrong; anything else is a crash of our own code, kept out of scores. */
function recordFailure(episode: Episode, error: unknown, stage: "flow" | "evaluator"): void {
  const message = error instanceof Error ? error.message : String(error);
  episode.terminationReason = "error";
  if (error instanceof ModelError) {
    episode.errorClass = "model_error";
    episode.error = message;
    episode.score = scored(0, false, { explanation: message });
  } else if (error instanceof InfraError) {
    episode.errorClass = "infra_error";
    episode.error = message;
    episode.score = unscored(message);
  } else {
    episode.errorClass = "infra_error";
    episode.error = `${stage} crashed: ${message}`;
    episode.score = unscored(episode.error);
  }
}

function emptyEpisode(taskId: string, attempt: number): Episode {
  return EpisodeSchema.parse({ id: episodeId(taskId, attempt), taskId, attempt });
}

/** A flow may return a whole Episode or one Trajectory; either way the engine owns the id, task id and attempt. */
function toEpisode(produced: Episode | Trajectory, taskId: string, attempt: number): Episode {
  if ("trajectories" in produced) {
    return EpisodeSchema.parse({ ...produced, id: episodeId(taskId, attempt), taskId, attempt });
  }
  return EpisodeSchema.parse({ id: episodeId(taskId, attempt), taskId, attempt, trajectories: [produced] });
}

function sumUsage(episode: Episode): Episode["usage"] {
  let promptTokens = 0;
  let completionTokens = 0;
  for (const trajectory of episode.trajectories) {
    for (const step of trajectory.steps) {
      promptTokens += step.usage.promptTokens;
      completionTokens += step.usage.completionTokens;
    }
  }
  return { promptTokens, completionTokens };
}

/**
 * The signal a flow runs under: aborted by the run's cancellation or after `timeoutMs`; `race(flow)` settles as the flow
 * does, or rejects with the abort's reason at the moment of the abort (so a flow that ignores its signal still ends on
 * time). One controller, one timer and one listener on the run signal, all released when the episode ends:
 * AbortSignal.timeout + AbortSignal.any cost about four times as much per episode, `any` keeps every episode's signal
 * registered on the run signal, and a second listener on the episode's own signal to end the race would cost as much
 * again. The race is one promise of its own, not Promise.race over a second, pre-made promise (fewer objects per episode).
 */
function episodeSignal(runSignal: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  // Set once the race runs; an abort before it (a run already cancelled) is seen by race() on the signal.
  let rejectRace: ((reason: unknown) => void) | undefined;
  const abort = (reason: unknown) => {
    controller.abort(reason);
    rejectRace?.(controller.signal.reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    abort(new DOMException(`episode exceeded ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onRunAbort = () => abort(runSignal.reason);
  // Every episode in flight holds one listener on the run signal until it ends: many, but not a leak.
  setMaxListeners(0, runSignal);
  if (runSignal.aborted) onRunAbort();
  else runSignal.addEventListener("abort", onRunAbort, { once: true });
  return {
    signal: controller.signal,
    race<T>(flow: Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        // As Promise.race([flow, stopped]) did: a flow already settled wins over an abort already made.
        Promise.resolve(flow).then(resolve, reject);
        if (controller.signal.aborted) queueMicrotask(() => reject(controller.signal.reason));
        else rejectRace = reject;
      });
    },
    timedOut: () => timedOut,
    release() {
      clearTimeout(timer);
      runSignal.removeEventListener("abort", onRunAbort);
    },
  };
}
