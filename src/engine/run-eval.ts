/** The eval loop: runs every missing (task, attempt) pair with bounded concurrency, appends each episode as it ends, summarises. */
import pLimit from "p-limit";
import type { Cookbook } from "../core/cookbook.js";
import type { RunResources } from "../core/run-resources.js";
import type { Episode } from "../core/episode.js";
import type { Task } from "../core/task.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import { summarizeRun, type RunSummary } from "../metrics/summarize-run.js";
import { episodeCost } from "../metrics/run-cost.js";
import type { ModelPrice } from "../core/price-table.js";
import { openEpisodeLog, readEpisodes } from "../runs/episode-log.js";
import { writeJsonAtomically, type RunPaths } from "../runs/run-directory.js";
import { EpisodeCancelledError, runEpisode } from "./run-episode.js";
import { CostBudget } from "./cost-budget.js";
import { openRunResources } from "../sandbox/run-resources.js";
import type { SlotLane } from "./episode-slots.js";

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
  /**
   * The run's sandbox and pools, lent to every flow and evaluator, opened and closed by the caller (`rllm eval` opens
   * the sandbox --sandbox names and records it). Absent, the run opens a local sandbox's resources of its own (no
   * process starts until a flow or evaluator asks for a pool) and closes them when it ends.
   */
  resources?: RunResources;
  onEpisodeEnd?: (event: EpisodeEndEvent) => void;
  /**
   * Called once, before any episode runs, with the episodes a resumed run keeps (those earlier invocations recorded,
   * infra failures left out: they run again), so that running figures can start from them.
   */
  onStart?: (event: { kept: Episode[]; total: number }) => void;
  /** The model's prices: summary.json gets a `cost` section, and `maxCost` can be enforced. */
  price?: ModelPrice;
  /**
   * Dollars the run may spend in all (episodes recorded by earlier invocations included): no episode starts once
   * the spend so far plus the mean episode cost for it and every episode in flight would pass it. The run ends
   * incomplete, and --resume with a higher limit (or none) finishes it.
   */
  maxCost?: number;
  /** A budget shared with other runs (the cells of an eval set), used instead of `maxCost`. */
  costBudget?: CostBudget;
  /** Dollars of this run's calls outside its episodes (the judge calls of --rerank), counted against the budget. */
  otherSpend?: () => number;
  /** Episode slots shared with other runs (the cells of an eval set), used instead of `concurrency`. */
  slots?: SlotLane;
  /**
   * Called in each invocation for every task whose attempts are all recorded: when its last missing attempt lands,
   * or at the start for a task a killed run had finished (reranking hooks in here, so it must be idempotent).
   */
  onTaskComplete?: (task: Task, episodes: Episode[]) => Promise<void>;
  /** Adds fields to summary.json (e.g. rerank metrics) computed from the final episodes, and names unfinished work. */
  extendSummary?: (summary: RunSummary, episodes: Episode[]) => SummaryExtension;
}

/** What `extendSummary` gives back: the summary with its fields, and work still missing (each makes the run incomplete). */
export interface SummaryExtension {
  summary: RunSummary;
  unfinished: string[];
}

/** summary.json's `status`: cancelled by Ctrl-C, incomplete (`unfinished` says what --resume would still do), or complete. */
export type RunStatus = "complete" | "incomplete" | "cancelled";

export interface EpisodeEndEvent {
  episode: Episode;
  done: number;
  total: number;
  /** Already recorded before this invocation (resume). */
  skipped: number;
  /** Dollars spent so far by every run of the budget, judge calls included (0 without prices). */
  spent: number;
}

export interface EvalRunResult {
  summary: RunSummary;
  episodes: Episode[];
  status: RunStatus;
  /** Work the run still lacks, one line each (empty when complete). */
  unfinished: string[];
  cancelled: boolean;
  /** Pairs that ran in this invocation. */
  ran: number;
}

/** Runs the eval; pairs already in episodes.jsonl (other than infra failures, which are retried) are skipped. */
export async function runEval(options: EvalRunOptions): Promise<EvalRunResult> {
  if (options.resources) return runEvalOn({ ...options, resources: options.resources });
  const resources = openRunResources();
  try {
    return await runEvalOn({ ...options, resources });
  } finally {
    await resources.close();
  }
}

async function runEvalOn(options: EvalRunOptions & { resources: RunResources }): Promise<EvalRunResult> {
  // Open first: opening cuts a torn tail, so the episodes read are the lines the new ones are appended after.
  const log = openEpisodeLog(options.paths.episodes);
  let recorded: Map<string, Episode>;
  try {
    recorded = new Map(readEpisodes(options.paths.episodes).map((episode) => [episode.id, episode]));
  } catch (error) {
    log.close();
    throw error;
  }
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

  const costOf = (episode: Episode) => (options.price ? episodeCost(episode, options.price) : 0);
  const costBudget = options.costBudget ?? new CostBudget(options.price ? options.maxCost : undefined);
  const account = costBudget.open();
  if (options.otherSpend) account.otherSpend = options.otherSpend;
  for (const episode of recorded.values()) {
    account.episodeSpend += costOf(episode);
    account.priced += 1;
  }
  const limit: SlotLane = options.slots ?? pLimit(options.concurrency);
  if (options.onStart) {
    const taskIds = new Set(options.tasks.map((task) => task.id));
    const kept = [...recorded.values()].filter((episode) => isDone(episode) && taskIds.has(episode.taskId) && episode.attempt < options.attempts);
    options.onStart({ kept, total });
  }
  let done = skipped;
  let ran = 0;
  let stopped = false;
  const completeTask = async (task: Task) => {
    if (!options.onTaskComplete || options.signal.aborted || stopped) return;
    const taskEpisodes = [...recorded.values()].filter((candidate) => candidate.taskId === task.id && candidate.attempt < options.attempts);
    try {
      await options.onTaskComplete(task, taskEpisodes);
    } catch (error) {
      // Cancelled mid-rerank: the task keeps no record, and --resume completes it.
      if (!options.signal.aborted) throw error;
    }
  };
  // Built once: the options object spread per episode showed in the profile.
  const episodeOptions = { ...options, runSignal: options.signal };
  const runOne = async (task: Task, attempt: number) => {
    if (options.signal.aborted || stopped) return;
    if (costBudget.wouldPass(account)) {
      account.notStarted += 1;
      return;
    }
    let episode: Episode;
    account.inFlight += 1;
    try {
      episode = await runEpisode(task, attempt, episodeOptions);
    } catch (error) {
      if (error instanceof EpisodeCancelledError) return;
      throw error;
    } finally {
      account.inFlight -= 1;
    }
    // Its spend counts at once, for the --max-cost check of the next episode to start.
    const committed = log.appendGrouped(episode);
    // A rerun infra failure replaces its earlier record in the spend too.
    const previous = recorded.get(episode.id);
    if (previous) {
      account.episodeSpend -= costOf(previous);
      account.priced -= 1;
    }
    recorded.set(episode.id, episode);
    account.episodeSpend += costOf(episode);
    account.priced += 1;
    // Durability rule: an episode is counted done, reported and completes its task only once its line is written
    // (handed to the kernel: a killed run loses none of them). Episodes that end together share one write.
    await committed;
    done += 1;
    ran += 1;
    options.onEpisodeEnd?.({ episode, done, total, skipped, spent: costBudget.spent() });
    const remaining = (remainingByTask.get(task.id) ?? 1) - 1;
    remainingByTask.set(task.id, remaining);
    if (remaining === 0) await completeTask(task);
  };
  // On a fatal error (a 401, say) stop starting episodes, let the in-flight ones land, then report it.
  const orStop = (work: Promise<void>) =>
    work.catch((error: unknown) => {
      stopped = true;
      throw error;
    });
  // Tasks a killed run had finished are completed first: their attempts are all recorded, so nothing else would.
  const finishedBefore = options.tasks.filter((task) => !remainingByTask.has(task.id));
  const settled = await Promise.allSettled([
    ...finishedBefore.map((task) => limit(() => orStop(completeTask(task)))),
    ...pending.map(({ task, attempt }) => limit(() => orStop(runOne(task, attempt)))),
  ]);
  log.close();
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failure) throw failure.reason;

  const taskIds = new Set(options.tasks.map((task) => task.id));
  const episodes = [...recorded.values()].filter((episode) => taskIds.has(episode.taskId) && episode.attempt < options.attempts);
  const base = summarizeRun(episodes, options.tasks.length, options.attempts, options.price);
  const extended = options.extendSummary?.(base, episodes) ?? { summary: base, unfinished: [] };
  const { summary } = extended;
  const unfinished =
    account.notStarted > 0
      ? [...extended.unfinished, `${account.notStarted} episodes not started: --max-cost ${costBudget.limit} reached ($${costBudget.spent().toFixed(4)} spent)`]
      : extended.unfinished;
  const status: RunStatus = options.signal.aborted ? "cancelled" : unfinished.length > 0 ? "incomplete" : "complete";
  writeJsonAtomically(options.paths.summary, { ...summary, status, unfinished });
  return { summary, episodes, status, unfinished, cancelled: options.signal.aborted, ran };
}
