/**
 * Runs a planned eval with an invocation's shared services: the pre-flight request, the endpoint, the model call
 * pipeline, the reranker, the early stop when the endpoint goes down, and the engine's `runEval`. It prints nothing:
 * progress and notices go to the caller's hooks, and the outcome says how the run ended.
 */
import { EndpointUnavailableError } from "../core/errors/endpoint-unavailable-error.js";
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import type { Episode } from "../core/episode.js";
import type { Task } from "../core/task.js";
import type { ModelPrice } from "../core/price-table.js";
import type { CostBudget } from "../engine/cost-budget.js";
import type { SlotLane } from "../engine/episode-slots.js";
import { runEval, type EvalRunResult } from "../engine/run-eval.js";
import { RetryBudget } from "../llm/retry-policy.js";
import { openRunDirectory } from "../runs/run-directory.js";
import { cookbookJudgeKind } from "../tournament/cookbook-judge-kind.js";
import type { EvalReranker } from "../tournament/eval-reranker.js";
import { assertEndpointAnswers } from "./assert-endpoint-answers.js";
import type { EvalProgress } from "./eval-progress.js";
import { createInfraFailureWatch } from "./infra-failure-watch.js";
import { buildModelCallPipeline } from "./model-call-pipeline.js";
import type { EvalPlan } from "./plan-eval.js";
import { noModelEndpoint, openEndpoint, type Endpoint } from "./resolve-endpoint.js";
import type { RunServices } from "./run-services.js";
import { openTinkerEndpoint } from "./tinker-endpoint.js";

// The early stop's window: this many episodes in a row failing with one cause means the endpoint is down.
const earlyStopWindow = 8;

/** What the caller observes and shares: Ctrl-C, progress, notices, and for a cell of an eval set its share of the set. */
export interface EvalExecutionHooks {
  /** Aborted by Ctrl-C: finished episodes are kept and the run ends cancelled. */
  signal?: AbortSignal;
  /** Called once the endpoint is open, right before the episodes start (a progress line's clock starts here). */
  onEpisodesStart?: () => void;
  /** Called after each episode with the counts so far. */
  onProgress?: (progress: EvalProgress) => void;
  /** A notice for the user (the embedded model in use, a warning). */
  notify?: (message: string) => void;
  /** A spending limit shared with other runs, used instead of the plan's `maxCost`. */
  costBudget?: CostBudget;
  /** This run's lane of episode slots shared with other runs; taken once, right before the episodes are queued. */
  takeLane?: () => SlotLane;
}

/** How an executed eval ended. */
export interface EvalOutcome {
  benchmarkName: string;
  cookbookName: string;
  result: EvalRunResult;
  /** The run folder. */
  directory: string;
  /** The endpoint the run called (the agent's name as its model for a scripted agent). */
  endpoint: { baseUrl: string; model: string };
  price?: ModelPrice;
  /** The final counts. */
  progress: EvalProgress;
  /** Set when the run stopped because its last `window` episodes all failed with one infra `cause`. */
  earlyStop?: { cause: string; window: number };
  /** The commonest infra error's cause and count, when any episode was one. */
  commonInfraCause?: { cause: string; count: number };
}

/** Runs `plan`; throws for usage errors (a price missing for --max-cost, an endpoint that refuses the model). */
export async function executeEvalPlan(plan: EvalPlan, services: RunServices, hooks: EvalExecutionHooks = {}): Promise<EvalOutcome> {
  const { options } = plan;
  const notify = hooks.notify ?? (() => {});
  const opened = services.resources.sandbox.setting;
  if (JSON.stringify(opened) !== JSON.stringify(plan.sandbox)) {
    throw new Error(`the run was planned for sandbox ${JSON.stringify(plan.sandbox)} but its services opened ${JSON.stringify(opened)}`);
  }
  // The cookbook's pools start now (a grading thread warming up, the sandbox slots probed) beside the pre-flight and
  // the endpoint's start; one that cannot open (no bubblewrap, a provider that cannot run programs) ends the run below.
  const warming = services.resources.warm(plan.cookbook.pools ?? []);
  warming.catch(() => undefined);
  const price = services.priceFor(plan.endpoint.model, plan.configuredPrice);
  if (options.maxCost !== undefined && !price) throw new InputError(usageMessage`${optionName("maxCost")} needs prices for model "${plan.endpoint.model}"`);
  // One request before the run: a dead endpoint fails here in a second, naming the URL, instead of after the retries.
  if (plan.scriptedAgent === undefined && !plan.endpoint.isEmbedded && options.backend !== "tinker") {
    await preflight(plan.endpoint, services.cache !== undefined, notify);
  }
  const endpoint =
    plan.scriptedAgent !== undefined
      ? noModelEndpoint(`agent ${plan.scriptedAgent}`)
      : options.backend === "tinker"
        ? await openTinkerEndpoint(options, notify)
        : await openEndpoint(plan.endpoint);
  try {
    if (endpoint.isEmbedded) {
      notify(`no --base-url given: ${"modelFile" in plan.endpoint ? `serving ${endpoint.model} with llama.cpp` : "using the embedded tiny model"} (offline, served at ${endpoint.baseUrl})`);
    }
    await warming;
    return await runOnEndpoint(plan, services, hooks, endpoint, price);
  } finally {
    await endpoint.close();
  }
}

/** Runs the episodes against the open endpoint through the pipeline, reranking and watching for an endpoint gone down. */
async function runOnEndpoint(plan: EvalPlan, services: RunServices, hooks: EvalExecutionHooks, endpoint: Endpoint, price: ModelPrice | undefined): Promise<EvalOutcome> {
  const { options, tasks, cookbook } = plan;
  // What the machine gave the run (its interpreter and packages, its pools) is recorded beside the config, not compared.
  const paths = openRunDirectory(plan.directory, plan.config, options.resume, { resources: services.resources.record() });
  const progress: EvalProgress = { done: 0, total: tasks.length * options.attempts, skipped: 0, correct: 0, scored: 0, infraErrors: 0, modelErrors: 0, retries: 0 };
  const limiter = services.limiterFor(endpoint.baseUrl);
  const { client, cacheCounters } = buildModelCallPipeline({
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    apiKey: endpoint.apiKey,
    maxRetries: options.maxRetries,
    retryBudget: new RetryBudget(options.retryBudget),
    onRetry: () => {
      progress.retries += 1;
    },
    ...(limiter ? { limiter } : {}),
    ...(services.cache ? { cache: services.cache } : {}),
  });
  const sampling = { temperature: options.sampling.temperature, topP: options.sampling.topP, maxTokens: options.sampling.maxTokens };
  // When the last episodes all failed the same way, the endpoint is down: stop instead of spending the retry budget.
  const window = Math.min(earlyStopWindow, progress.total);
  const failures = createInfraFailureWatch(window);
  const earlyStop = new AbortController();
  let earlyStopCause: string | undefined;
  const signal = hooks.signal ? AbortSignal.any([hooks.signal, earlyStop.signal]) : earlyStop.signal;
  let reranker: EvalReranker | undefined;
  const taskIds = new Set(tasks.map((task) => task.id));
  try {
    // The signal stops a tournament in progress too; its task keeps no record and a resume reranks it.
    reranker = options.rerank
      ? (await import("../tournament/eval-reranker.js")).createEvalReranker({
          methods: options.rerank.methods,
          budget: options.rerank.budget,
          client,
          sampling,
          judgeKind: cookbookJudgeKind(cookbook),
          seed: options.seed,
          file: paths.tournaments,
          signal,
          ...(price ? { price } : {}),
        })
      : undefined;
    // Each task's tournament is followed by a progress report: its judge calls land after the task's episodes.
    const rerankHooks = (active: EvalReranker) => ({
      onTaskComplete: async (task: Task, episodes: Episode[]) => {
        await active.onTaskComplete(task, episodes);
        progress.rerank = active.progress(taskIds);
        hooks.onProgress?.(progress);
      },
      extendSummary: active.extendSummary,
      otherSpend: active.spent,
    });
    hooks.onEpisodesStart?.();
    const result = await runEval({
      tasks,
      cookbook,
      client,
      sampling,
      seed: options.seed,
      attempts: options.attempts,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutSeconds * 1000,
      paths,
      signal,
      resources: services.resources,
      ...(price ? { price } : {}),
      ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
      ...(hooks.costBudget ? { costBudget: hooks.costBudget } : {}),
      ...(hooks.takeLane ? { slots: hooks.takeLane() } : {}),
      ...(reranker ? rerankHooks(reranker) : {}),
      // A resumed run's figures start from the episodes (and tournaments) it keeps, not from zero.
      onStart: ({ kept, total }) => {
        Object.assign(progress, { done: kept.length, skipped: kept.length, total });
        for (const episode of kept) countEpisode(progress, episode);
        if (reranker) progress.rerank = reranker.progress(taskIds);
        if (kept.length > 0) hooks.onProgress?.(progress);
      },
      onEpisodeEnd: ({ episode, done, total, skipped, spent }) => {
        Object.assign(progress, { done, total, skipped });
        if (price) progress.spent = spent;
        if (limiter) progress.limiter = limiter.stats();
        if (cacheCounters) progress.cacheHits = cacheCounters.hits;
        const sharedCause = failures.record(episode);
        if (sharedCause !== undefined && earlyStopCause === undefined && done < total) {
          earlyStopCause = sharedCause;
          earlyStop.abort();
        }
        countEpisode(progress, episode);
        hooks.onProgress?.(progress);
      },
    });
    const commonInfraCause = failures.mostCommon();
    return {
      benchmarkName: plan.benchmark.name,
      cookbookName: cookbook.name,
      result,
      directory: paths.directory,
      endpoint: { baseUrl: endpoint.baseUrl, model: endpoint.model },
      ...(price ? { price } : {}),
      progress,
      ...(earlyStopCause !== undefined ? { earlyStop: { cause: earlyStopCause, window } } : {}),
      ...(commonInfraCause ? { commonInfraCause } : {}),
    };
  } finally {
    reranker?.close();
  }
}

/** Adds an episode to the running counts: unscored episodes stay out of the accuracy, as they stay out of summary.json's. */
function countEpisode(progress: EvalProgress, episode: Episode): void {
  if (episode.errorClass === "infra_error") {
    progress.infraErrors += 1;
    return;
  }
  if (episode.score.status === "scored") {
    progress.scored += 1;
    if (episode.score.isCorrect) progress.correct += 1;
  }
  if (episode.errorClass === "model_error") progress.modelErrors += 1;
}

/**
 * The pre-flight check; with the response cache on, an endpoint that does not answer is a warning instead, so a run
 * whose replies are all cached still runs offline (the early stop still ends it if uncached requests fail).
 */
async function preflight(endpoint: { baseUrl: string; model: string; apiKey?: string }, isCached: boolean, notify: (message: string) => void): Promise<void> {
  try {
    await assertEndpointAnswers(endpoint);
  } catch (error) {
    if (!(isCached && error instanceof EndpointUnavailableError)) throw error;
    notify(`warning: ${error.message}; going on with the response cache`);
  }
}
