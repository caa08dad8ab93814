/**
 * Plans one eval: validates its options and resolves everything that can be known before anything runs. The line:
 * planning may read (the benchmark's rows, $RLLM_HOME/config.json, a cookbook module, the run folder's config.json,
 * the clock for the default folder name) but writes nothing, starts no server and sends no request, so every usage
 * error comes out of it before the embedded model's server (which keeps the process alive) is started.
 */
import path from "node:path";
import type { Benchmark } from "../core/benchmark.js";
import { assertInputFile } from "../core/check-paths.js";
import type { Cookbook } from "../core/cookbook.js";
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { issuePath } from "../core/eval-set-config.js";
import type { ModelPrice } from "../core/price-table.js";
import { rllmHome } from "../core/rllm-home.js";
import type { SandboxSetting } from "../core/sandbox-setting.js";
import { configuredSandbox } from "../core/user-config.js";
import type { Task } from "../core/task.js";
import { checkRunDirectory } from "../runs/run-directory.js";
import { assertEmbeddedModelCanRun } from "./check-embedded-model.js";
import { configureCookbook, parseCookbookOptions } from "./configure-cookbook.js";
import { EvalOptionsSchema, type EvalOptions, type EvalOptionsInput } from "./eval-options.js";
import { resolveBenchmarkOrFolder } from "./resolve-benchmark-or-folder.js";
import { resolveCookbook } from "./resolve-cookbook.js";
import { planEndpoint, type EndpointPlan } from "./resolve-endpoint.js";
import { planTinkerEndpoint } from "./tinker-endpoint.js";

/** An eval ready to run: what `executeEvalPlan` needs, every part of it checked. */
export interface EvalPlan {
  /** The options with their defaults filled in. */
  options: EvalOptions;
  benchmark: Benchmark;
  /** The tasks to run (`limit` applied). */
  tasks: Task[];
  /** The cookbook, configured with its options. */
  cookbook: Cookbook;
  /** Where model calls go; nothing is started yet. */
  endpoint: EndpointPlan;
  /** The agent of a cookbook that calls no model (terminal oracle, nop): no endpoint is checked or opened. */
  scriptedAgent?: string;
  /** Where the run's untrusted code runs: the option's, else config.json's, else local. */
  sandbox: SandboxSetting;
  /** The price to use unless the `prices` table names the model: the option's, else the named endpoint's. */
  configuredPrice?: ModelPrice;
  /** What the run folder's config.json holds; `resume` refuses a folder whose config differs. */
  config: Record<string, unknown>;
  /** The run folder. */
  directory: string;
}

/** What planning reports on the way (a benchmark's warnings about its rows). */
export interface PlanEvalHooks {
  warn?: (message: string) => void;
}

/** Validates `input` (an error names each bad field) and plans the eval; throws InputError for a usage error. */
export async function planEval(input: EvalOptionsInput, hooks: PlanEvalHooks = {}): Promise<EvalPlan> {
  const parsed = EvalOptionsSchema.safeParse(input);
  if (!parsed.success) throw new InputError(parsed.error.issues.map((issue) => `eval options: field "${issuePath(issue.path)}": ${issue.message}`).join("\n"));
  const options = parsed.data;
  if (options.maxCost !== undefined && !options.prices && !options.endpoint && !options.price) {
    throw new InputError(usageMessage`${optionName("maxCost")} needs prices: ${optionName("prices")} (a price file), or an ${optionName("endpoint")} with prices`);
  }
  const benchmark = typeof options.benchmark === "string" ? await resolveBenchmarkOrFolder(options.benchmark, rllmHome()) : options.benchmark;
  if (options.resume && !options.out) throw new InputError(usageMessage`${optionName("resume", { on: true })} needs ${optionName("out")} (the run folder)`);
  const baseCookbook = typeof options.cookbook === "object" ? options.cookbook : await resolveCookbook(options.cookbook ?? benchmark.defaultCookbook);
  const cookbookOptions = parseCookbookOptions(baseCookbook, options.cookbookOptions);
  if (options.data) assertInputFile(optionName("data"), options.data);
  const warn = hooks.warn ?? (() => {});
  let tasks = await benchmark.loadTasks({ dataFile: options.data, split: options.split, home: rllmHome(), warn });
  if (options.limit !== undefined) tasks = tasks.slice(0, options.limit);
  if (options.backend !== "tinker" && options.tokenizer) throw new InputError(usageMessage`${optionName("tokenizer")}: backend "${options.backend}" cannot honour it (only tinker)`);
  const endpoint = options.backend === "tinker" ? await planTinkerEndpoint(options) : planEndpoint(options);
  const sandbox = configuredSandbox(rllmHome(), options.sandbox);
  const cookbook = configureCookbook(baseCookbook, cookbookOptions, endpoint, sandbox);
  // A scripted agent (terminal oracle, nop) calls no model: none is checked or started, and the run names the agent.
  const scriptedAgent = cookbook.scriptedAgent;
  if (endpoint.isEmbedded && !("modelFile" in endpoint) && scriptedAgent === undefined) await assertEmbeddedModelCanRun(benchmark.name, cookbook, tasks);
  const config = runConfig(options, benchmark, cookbook, endpoint, scriptedAgent, sandbox);
  const directory = options.out ?? path.join("runs", `${path.basename(benchmark.name)}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  checkRunDirectory(directory, config, options.resume);
  const configuredPrice = options.price ?? (endpoint.isEmbedded ? undefined : endpoint.price);
  return {
    options,
    benchmark,
    tasks,
    cookbook,
    endpoint,
    sandbox,
    ...(scriptedAgent !== undefined ? { scriptedAgent } : {}),
    ...(configuredPrice ? { configuredPrice } : {}),
    config,
    directory,
  };
}

/** config.json: what makes two invocations the same run, so that `resume` can refuse a different one. */
function runConfig(
  options: EvalOptions,
  benchmark: Benchmark,
  cookbook: Cookbook,
  endpoint: EndpointPlan,
  scriptedAgent: string | undefined,
  sandbox: SandboxSetting,
): Record<string, unknown> {
  return {
    benchmark: benchmark.name,
    cookbook: cookbook.name,
    // The options as given, so that a resume compares what the user asked for, not defaults that may change.
    ...(Object.keys(options.cookbookOptions).length > 0 ? { cookbookOptions: options.cookbookOptions } : {}),
    ...(scriptedAgent === undefined ? { model: endpoint.model } : { model: null, agent: scriptedAgent }),
    ...(options.backend === "tinker" ? { backend: "tinker" } : {}),
    baseUrl: endpoint.isEmbedded ? "embedded" : endpoint.baseUrl,
    data: options.data ? path.resolve(options.data) : null,
    split: options.split,
    limit: options.limit ?? null,
    attempts: options.attempts,
    seed: options.seed,
    sampling: { temperature: options.sampling.temperature, topP: options.sampling.topP, maxTokens: options.sampling.maxTokens },
    timeoutSeconds: options.timeoutSeconds,
    sandbox,
    ...(options.rerank ? { rerank: { methods: options.rerank.methods, budget: options.rerank.budget } } : {}),
  };
}
