/** `rllm eval <benchmark>`'s action: runs a benchmark against an endpoint (or the embedded model), durably, and prints honest statistics. */
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import { rllmHome } from "../../core/rllm-home.js";
import { runEval } from "../../engine/run-eval.js";
import { checkRunDirectory, openRunDirectory, type RunPaths } from "../../runs/run-directory.js";
import { RetryBudget } from "../../llm/retry-policy.js";
import { resolveBenchmarkOrFolder } from "../../evaluation/resolve-benchmark-or-folder.js";
import { resolveCookbook } from "../../evaluation/resolve-cookbook.js";
import { noModelEndpoint, openEndpoint, planEndpoint, type Endpoint } from "../../evaluation/resolve-endpoint.js";
import { openTinkerEndpoint, planTinkerEndpoint } from "../../evaluation/tinker-endpoint.js";
import { assertEndpointAnswers } from "../../evaluation/assert-endpoint-answers.js";
import { EndpointUnavailableError } from "../../core/errors/endpoint-unavailable-error.js";
import type { Cookbook } from "../../core/cookbook.js";
import type { Task } from "../../core/task.js";
import type { SamplingParams } from "../../core/llm-client.js";
import { assertInputFile } from "../../core/check-paths.js";
import { assertEmbeddedModelCanRun } from "../../evaluation/check-embedded-model.js";
import { ProgressBar, type ProgressCounts } from "../progress-bar.js";
import { formatRerankMethod, formatSummary, summaryInfraRate } from "../format-summary.js";
import { infraErrorWarningRate } from "../../metrics/infra-error-rate.js";
import { parseSetFlags } from "../../core/parse-set-flags.js";
import { configureCookbook, parseCookbookOptions } from "../../evaluation/configure-cookbook.js";
import { cookbookJudgeKind } from "../../tournament/cookbook-judge-kind.js";
import type { EvalFlags } from "./eval-command.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import { resumeCommand } from "../resume-command.js";
import { createInfraFailureWatch } from "../../evaluation/infra-failure-watch.js";
import { openRunServices, type RunServices } from "../../evaluation/run-services.js";
import { buildModelCallPipeline } from "../../evaluation/model-call-pipeline.js";
import type { ModelPrice } from "../../core/price-table.js";
import type { CostBudget } from "../../engine/cost-budget.js";
import type { SlotLane } from "../../engine/episode-slots.js";
import type { EvalReranker } from "../../tournament/eval-reranker.js";

/** Runs `rllm eval <benchmark>` (or an eval set with --config) and sets the exit code (0 ok, 1 failed or under --fail-under). */
export async function evalAction(flags: EvalFlags, [benchmarkName]: [string?]): Promise<void> {
  if (flags.config) {
    if (benchmarkName) throw new InputError(`--config runs the benchmarks its file names: drop "${benchmarkName}"`);
    process.exitCode = await (await import("./eval-set.js")).runEvalSet(flags);
    return;
  }
  if (!benchmarkName) throw new InputError("rllm eval needs a <benchmark> (or --config evalset.yaml)");
  if (flags.maxCost !== undefined && !flags.prices && !flags.endpoint) throw new InputError("--max-cost needs prices: --prices prices.json, or an --endpoint with prices");
  const services = await openRunServices(flags);
  try {
    if (services.cacheRecovery) console.error(`rllm: ${services.cacheRecovery}`);
    process.exitCode = await runEvalCommand(benchmarkName, flags, services);
  } finally {
    services.close();
  }
}

/** What a cell of an eval set shares with the other cells: episode slots, the --max-cost budget, Ctrl-C and the progress line. */
export interface SetCell {
  label: string;
  /** The cell's lane of the set's episode slots; taken once, right before its episodes are queued. */
  takeLane(): SlotLane;
  costBudget: CostBudget;
  /** Aborted by Ctrl-C (or by another cell's fatal error): the cell stops as a run stops on Ctrl-C. */
  signal: AbortSignal;
  /** The cell's progress, for the set's progress line. */
  report(counts: ProgressCounts): void;
}

/**
 * Runs the eval described by the flags with the invocation's shared services; returns the exit code (0 ok, 1 failed
 * or under --fail-under). `cell` makes it one cell of an eval set, which owns the progress line and Ctrl-C.
 */
export async function runEvalCommand(benchmarkName: string, flags: EvalFlags, services: RunServices, configuredPrice?: ModelPrice, cell?: SetCell): Promise<number> {
  // Every usage check comes first: the embedded model's server, once started, keeps the process alive until closed.
  const benchmark = await resolveBenchmarkOrFolder(benchmarkName, rllmHome());
  if (flags.resume && !flags.out) throw new InputError("--resume needs --out <run directory>");
  const baseCookbook = await resolveCookbook(flags.cookbook ?? benchmark.defaultCookbook);
  // --agent and --allow-network are the terminal cookbook's options under their own flags.
  const setFlags = [...flags.set, ...(flags.agent !== undefined ? [`agent=${flags.agent}`] : []), ...(flags.allowNetwork ? ["allowNetwork=true"] : [])];
  const cookbookOptions = parseCookbookOptions(baseCookbook, setFlags);
  if (flags.data) assertInputFile("--data", flags.data);
  let tasks = await benchmark.loadTasks({ dataFile: flags.data, split: flags.split, home: rllmHome(), warn: (message) => console.error(`rllm: warning: ${message}`) });
  if (flags.limit !== undefined) tasks = tasks.slice(0, flags.limit);
  if (flags.backend !== "tinker" && flags.tokenizer) throw new InputError(`--tokenizer: backend "${flags.backend}" cannot honour it (only tinker)`);
  const plan = flags.backend === "tinker" ? await planTinkerEndpoint(flags) : planEndpoint(flags);
  const price = services.priceFor(plan.model, configuredPrice ?? (plan.isEmbedded ? undefined : plan.price));
  if (flags.maxCost !== undefined && !price) throw new InputError(`--max-cost needs prices for model "${plan.model}"`);
  const cookbook = configureCookbook(baseCookbook, cookbookOptions, plan);
  // A scripted agent (terminal oracle, nop) calls no model: none is checked or started, and the run names the agent.
  const scriptedAgent = cookbook.scriptedAgent;
  if (plan.isEmbedded && scriptedAgent === undefined) await assertEmbeddedModelCanRun(benchmark.name, cookbook, tasks);
  const sampling = { temperature: flags.temperature, topP: flags.topP, maxTokens: flags.maxTokens };
  const config = {
    benchmark: benchmark.name,
    cookbook: cookbook.name,
    // The options as given, so that --resume compares what the user typed, not defaults that may change.
    ...(setFlags.length > 0 ? { cookbookOptions: parseSetFlags(setFlags) } : {}),
    ...(scriptedAgent === undefined ? { model: plan.model } : { model: null, agent: scriptedAgent }),
    ...(flags.backend === "tinker" ? { backend: "tinker" } : {}),
    baseUrl: plan.isEmbedded ? "embedded" : plan.baseUrl,
    data: flags.data ? path.resolve(flags.data) : null,
    split: flags.split,
    limit: flags.limit ?? null,
    attempts: flags.attempts,
    seed: flags.seed,
    sampling,
    timeoutSeconds: flags.timeout,
    ...(flags.rerank ? { rerank: { methods: flags.rerank, budget: flags.budget } } : {}),
  };
  const directory = flags.out ?? path.join("runs", `${path.basename(benchmark.name)}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  checkRunDirectory(directory, config, flags.resume);
  // One request before the run: a dead endpoint fails here in a second, naming the URL, instead of after the retries.
  if (scriptedAgent === undefined && !plan.isEmbedded && flags.backend !== "tinker") await preflight(plan, flags.cache !== undefined || process.env.RLLM_CACHE === "1");

  const endpoint =
    scriptedAgent !== undefined ? noModelEndpoint(`agent ${scriptedAgent}`) : flags.backend === "tinker" ? await openTinkerEndpoint(flags) : await openEndpoint(plan);
  try {
    if (endpoint.isEmbedded) console.error(`rllm: no --base-url given: using the embedded tiny model (offline, served at ${endpoint.baseUrl})`);
    const paths = openRunDirectory(directory, config, flags.resume);
    return await runWithProgress({ benchmarkName: benchmark.name, tasks, cookbook, endpoint, flags, sampling, paths, services, price, cell });
  } finally {
    await endpoint.close();
  }
}

interface RunInputs {
  benchmarkName: string;
  tasks: Task[];
  cookbook: Cookbook;
  endpoint: Endpoint;
  flags: EvalFlags;
  sampling: SamplingParams;
  paths: RunPaths;
  services: RunServices;
  price?: ModelPrice;
  cell?: SetCell;
}

/** Runs the checked eval with a progress line and Ctrl-C handling, prints the summary, returns the exit code. */
async function runWithProgress({ benchmarkName, tasks, cookbook, endpoint, flags, sampling, paths, services, price, cell }: RunInputs): Promise<number> {
  const counts: ProgressCounts = { done: 0, total: tasks.length * flags.attempts, skipped: 0, correct: 0, scored: 0, infraErrors: 0, modelErrors: 0, retries: 0 };
  const progress = cell ? undefined : new ProgressBar(benchmarkName);
  const report = (force = false) => (cell ? cell.report(counts) : progress!.update(counts, force));
  // In an eval set the set prints how to resume it, and each message names its cell.
  const resumeHint = cell ? "" : `\nfinish with: ${resumeCommand(process.argv.slice(2), paths.directory)}`;
  const say = (message: string) => console.error(`rllm: ${cell ? `${cell.label}: ` : ""}${message}`);
  const limiter = services.limiterFor(endpoint.baseUrl);
  const { client, cacheCounters } = buildModelCallPipeline({
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    apiKey: endpoint.apiKey,
    maxRetries: flags.maxRetries,
    retryBudget: new RetryBudget(flags.retryBudget),
    onRetry: () => {
      counts.retries += 1;
    },
    ...(limiter ? { limiter } : {}),
    ...(services.cache ? { cache: services.cache } : {}),
  });

  const ctrlC = cell ? { signal: cell.signal, release: () => {} } : interruptOnCtrlC("rllm: stopping (finished episodes are kept; Ctrl-C again to quit at once)");
  // When the last episodes all failed the same way, the endpoint is down: stop instead of spending the retry budget.
  const failures = createInfraFailureWatch(Math.min(8, counts.total));
  const earlyStop = new AbortController();
  let earlyStopCause: string | undefined;
  const interrupt = { signal: AbortSignal.any([ctrlC.signal, earlyStop.signal]), release: ctrlC.release };
  let reranker: EvalReranker | undefined;
  try {
    // The interrupt stops a tournament in progress too; its task keeps no record and --resume reranks it.
    reranker = flags.rerank
      ? (await import("../../tournament/eval-reranker.js")).createEvalReranker({
          methods: flags.rerank,
          budget: flags.budget,
          client,
          sampling,
          judgeKind: cookbookJudgeKind(cookbook.name),
          seed: flags.seed,
          file: paths.tournaments,
          signal: interrupt.signal,
          ...(price ? { price } : {}),
        })
      : undefined;
    const result = await runEval({
      tasks,
      cookbook,
      client,
      sampling,
      seed: flags.seed,
      attempts: flags.attempts,
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout * 1000,
      paths,
      signal: interrupt.signal,
      ...(price ? { price } : {}),
      ...(flags.maxCost !== undefined ? { maxCost: flags.maxCost } : {}),
      ...(cell ? { costBudget: cell.costBudget, slots: cell.takeLane() } : {}),
      ...(reranker ? { onTaskComplete: reranker.onTaskComplete, extendSummary: reranker.extendSummary, otherSpend: reranker.spent } : {}),
      onEpisodeEnd: ({ episode, done, total, skipped, spent }) => {
        Object.assign(counts, { done, total, skipped });
        if (price) counts.spent = spent;
        if (limiter) counts.limiter = limiter.stats();
        if (cacheCounters) counts.cacheHits = cacheCounters.hits;
        const sharedCause = failures.record(episode);
        if (sharedCause !== undefined && earlyStopCause === undefined && done < total) {
          earlyStopCause = sharedCause;
          earlyStop.abort();
        }
        if (episode.errorClass === "infra_error") counts.infraErrors += 1;
        else {
          // Unscored episodes stay out of the running accuracy, as they stay out of summary.json's.
          if (episode.score.status === "scored") {
            counts.scored += 1;
            if (episode.score.isCorrect) counts.correct += 1;
          }
          if (episode.errorClass === "model_error") counts.modelErrors += 1;
        }
        report();
      },
    });
    // The judge calls of the last tasks land after their episodes: the final figure is the summary's.
    if (price && result.summary.cost && !cell) counts.spent = result.summary.cost.total;
    report(true);
    progress?.finish();
    console.log(`\n${benchmarkName} · ${cookbook.name} · ${endpoint.model}  →  ${paths.directory}`);
    console.log(formatSummary(result.summary));
    for (const [method, rerank] of Object.entries(result.summary.rerank ?? {})) console.error(`rerank ${formatRerankMethod(method, rerank, "tasks")}`);
    if (earlyStopCause !== undefined) {
      const window = Math.min(8, counts.total);
      say(`stopped early: the last ${window} episodes all failed at ${endpoint.baseUrl} (model ${endpoint.model}): ${earlyStopCause}${resumeHint.replace("\n", "; once it answers, ")}`);
      return 1;
    }
    if (result.cancelled) {
      say(`interrupted${resumeHint.replace("\n", "; ")}`);
      return 1;
    }
    const infraRate = summaryInfraRate(result.summary);
    if (infraRate > infraErrorWarningRate) {
      say(
        `warning: ${(100 * infraRate).toFixed(1)}% of the episodes are infrastructure errors (${cookbook.name}'s flow and verifier), above ` +
          `${100 * infraErrorWarningRate}%: the accuracy leaves them out, so it may not be the model's`,
      );
    }
    if (result.summary.errors.infra > 0) {
      const common = failures.mostCommon();
      const cause = common ? `; most common cause (${common.count}×): ${common.cause}` : "";
      say(`${result.summary.errors.infra} episodes could not be run (infra errors, not scored${cause}); --resume retries them`);
      return 1;
    }
    if (result.status === "incomplete") {
      say(`the run is incomplete:\n  ${result.unfinished.join("\n  ")}${resumeHint}`);
      return 1;
    }
    const failedMethods = Object.entries(result.summary.rerank ?? {}).filter(([, rerank]) => rerank.status === "failed");
    if (failedMethods.length > 0) {
      say(`rerank ${failedMethods.map(([method]) => method).join(", ")} failed: most judge replies could not be parsed, so no rerank@1 is reported`);
      return 1;
    }
    if (flags.failUnder !== undefined && result.summary.metrics.accuracy.mean < flags.failUnder) {
      say(`accuracy ${result.summary.metrics.accuracy.mean.toFixed(4)} is under --fail-under ${flags.failUnder}`);
      return 1;
    }
    return 0;
  } finally {
    interrupt.release();
    reranker?.close();
  }
}

/**
 * The pre-flight check; with the response cache on, an endpoint that does not answer is a warning instead, so a run
 * whose replies are all cached still runs offline (the early stop still ends it if uncached requests fail).
 */
async function preflight(plan: { baseUrl: string; model: string; apiKey?: string }, isCached: boolean): Promise<void> {
  try {
    await assertEndpointAnswers(plan);
  } catch (error) {
    if (!(isCached && error instanceof EndpointUnavailableError)) throw error;
    console.error(`rllm: warning: ${error.message}; going on with the response cache`);
  }
}
