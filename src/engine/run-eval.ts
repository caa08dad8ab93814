/** The eval loop: runs every missing (task, attempt) pair with bounded concurrency, appends each episode at once, summarises. */
import pLimit from "p-limit";
import type { Cookbook } from "../core/cookbook.js";
import type { Episode } from "../core/episode.js";
import type { Task } from "../core/task.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import { summarizeRun, type RunSummary } from "../metrics/summarize-run.js";
import { EpisodeWriter, readEpisodes } from "./episode-log.js";
import { writeJsonAtomically, type RunPaths } from "./run-directory.js";
import { EpisodeCancelledError, runEpisode } from "./run-episode.js";

export interface EvalRunOptions {
  tasks: Task[];
  cookbook: Cookbook;
  client: LlmClient;
  sampling: SamplingParams;
  seed?: number;
  attempts: number;
  concurrency: number;
  /** Per-episode limit in milliseconds. */
  timeoutMs: number;
  paths: RunPaths;
  /** Aborted by Ctrl-C: in-flight episodes are dropped (and rerun by --resume), finished ones are kept. */
  signal: AbortSignal;
  onEpisodeEnd?: (event: EpisodeEndEvent) => void;
  /** Called once all attempts of a task are recorded (reranking hooks in here). */
  onTaskComplete?: (task: Task, episodes: Episode[]) => Promise<void>;
  /** Adds fields to summary.json (e.g. rerank metrics) computed from the final episodes. */
  extendSummary?: (summary: RunSummary, episodes: Episode[]) => RunSummary;
}

export interface EpisodeEndEvent {
  episode: Episode;
  done: number;
  total: number;
  /** Already recorded before this invocation (resume). */
  skipped: number;
}

export interface EvalRunResult {
  summary: RunSummary;
  episodes: Episode[];
  cancelled: boolean;
  /** Pairs that ran in this invocation. */
  ran: number;
}

/** Runs the eval; pairs already in episodes.jsonl (other than infra failures, which are retried) are skipped. */
export async function runEval(options: EvalRunOptions): Promise<EvalRunResult> {
  const recorded = new Map(readEpisodes(options.paths.episodes).map((episode) => [episode.id, episode]));
  const isDone = (episode: Episode | undefined) => episode !== undefined && episode.errorClass !== "infra_error";
  const pending: { task: Task; attempt: number }[] = [];
  for (const task of options.tasks) {
    for (let attempt = 0; attempt < options.attempts; attempt++) {
      if (!isDone(recorded.get(`${task.id}:${attempt}`))) pending.push({ task, attempt });
    }
  }
  const total = options.tasks.length * options.attempts;
  const skipped = total - pending.length;
  const remainingByTask = new Map<string, number>();
  for (const { task } of pending) remainingByTask.set(task.id, (remainingByTask.get(task.id) ?? 0) + 1);

  const writer = new EpisodeWriter(options.paths.episodes);
  const limit = pLimit(options.concurrency);
  let done = skipped;
  let ran = 0;
  let stopped = false;
  const runOne = async (task: Task, attempt: number) => {
    if (options.signal.aborted || stopped) return;
    let episode: Episode;
    try {
      episode = await runEpisode(task, attempt, { ...options, runSignal: options.signal });
    } catch (error) {
      if (error instanceof EpisodeCancelledError) return;
      throw error;
    }
    writer.append(episode);
    recorded.set(episode.id, episode);
    done += 1;
    ran += 1;
    options.onEpisodeEnd?.({ episode, done, total, skipped });
    const remaining = (remainingByTask.get(task.id) ?? 1) - 1;
    remainingByTask.set(task.id, remaining);
    if (remaining === 0 && options.onTaskComplete) {
      const taskEpisodes = [...recorded.values()].filter((candidate) => candidate.taskId === task.id);
      await options.onTaskComplete(task, taskEpisodes);
    }
  };
  // On a fatal error (a 401, say) stop starting episodes, let the in-flight ones land, then report it.
  const runOrStop = (task: Task, attempt: number) =>
    runOne(task, attempt).catch((error: unknown) => {
      stopped = true;
      throw error;
    });
  const settled = await Promise.allSettled(pending.map(({ task, attempt }) => limit(() => runOrStop(task, attempt))));
  writer.close();
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failure) throw failure.reason;

  const taskIds = new Set(options.tasks.map((task) => task.id));
  const episodes = [...recorded.values()].filter((episode) => taskIds.has(episode.taskId) && episode.attempt < options.attempts);
  let summary = summarizeRun(episodes, options.tasks.length, options.attempts);
  if (options.extendSummary) summary = options.extendSummary(summary, episodes);
  writeJsonAtomically(options.paths.summary, { ...summary, status: options.signal.aborted ? "cancelled" : "complete" });
  return { summary, episodes, cancelled: options.signal.aborted, ran };
}
