/**
 * Evaluates an eval set: every cell of models × benchmarks as its own run folder under the set folder, run at once,
 * sharing episode slots, each endpoint's rate limits and one spending limit; then set-summary.json compares them.
 * Each cell's EvalOptions are built from the typed config directly.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describeIssues, InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { parseJsonFile } from "../core/parse-json-file.js";
import { rllmHome } from "../core/rllm-home.js";
import { parseSandboxSetting, type SandboxSetting } from "../core/sandbox-setting.js";
import { configuredSandbox } from "../core/user-config.js";
import {
  EvalSetConfigSchema,
  benchmarkLabel,
  issuePath,
  modelLabel,
  type EvalSetBenchmark,
  type EvalSetConfig,
  type EvalSetModel,
} from "../core/eval-set-config.js";
import type { SetComparisonRow } from "../core/set-summary.js";
import { CostBudget } from "../engine/cost-budget.js";
import { EpisodeSlots } from "../engine/episode-slots.js";
import { readRunSummary } from "../runs/read-run-files.js";
import { diffConfigs, runPaths, writeJsonAtomically } from "../runs/run-directory.js";
import type { EvalOptionsInput } from "./eval-options.js";
import type { EvalProgress } from "./eval-progress.js";
import { executeEvalPlan, type EvalOutcome } from "./execute-eval-plan.js";
import { planEval } from "./plan-eval.js";
import { openRunServices } from "./run-services.js";
import { setComparisonRow } from "./set-comparison-row.js";
import { SelectionMethodSchema, type SelectionMethod } from "../tournament/selection-methods.js";

/** What the set's cells share that the config file does not say (`rllm eval --config`'s other flags). */
export type EvalSetOptions = Pick<EvalOptionsInput, "backend" | "tokenizer" | "maxRetries" | "retryBudget" | "cache" | "cacheTtl" | "rpm" | "tpm" | "prices" | "maxCost" | "sandbox"> & {
  /** The file the config came from: errors name it, and its folder resolves the benchmarks' relative `data` paths. */
  file?: string;
  /** The set folder (default runs/set-<timestamp>); `resume` finishes the set there. */
  out?: string;
  resume?: boolean;
  /** Cookbook options added to every cell's benchmark `set` (the CLI's --agent and --allow-network). */
  cookbookOptions?: Record<string, unknown>;
};

/** What the caller observes: Ctrl-C, the cells before they start, each cell's progress and end, and notices. */
export interface EvalSetHooks {
  /** Aborted by Ctrl-C: every cell stops as a run does, and the set ends interrupted. */
  signal?: AbortSignal;
  /** The cell labels in matrix order, and the set's spend so far when priced; called once before any cell runs. */
  onStart?: (cells: readonly string[], spent: (() => number) | undefined) => void;
  onCellProgress?: (cell: string, progress: EvalProgress) => void;
  /** A cell's run ended (not called for a cell that threw). */
  onCellEnd?: (cell: string, outcome: EvalOutcome) => void;
  notify?: (message: string) => void;
}

/** How the set ended. */
export interface EvalSetOutcome {
  directory: string;
  /** Stopped by the hooks' signal: no set-summary.json is written, and a resume finishes the set. */
  isInterrupted: boolean;
  /** One row per cell, in matrix order, as written to set-summary.json (empty when interrupted). */
  rows: SetComparisonRow[];
}

/** One cell of the matrix. */
interface Cell {
  model: EvalSetModel;
  benchmark: EvalSetBenchmark;
  label: string;
}

/** Runs (or with `resume`, finishes) the eval set; a cell's usage error stops the others and is thrown once they stop. */
export async function evaluateSet(input: z.input<typeof EvalSetConfigSchema>, options: EvalSetOptions = {}, hooks: EvalSetHooks = {}): Promise<EvalSetOutcome> {
  const source = options.file ?? "eval set";
  const config = parseEvalSetConfig(input, source);
  if (options.resume && !options.out) throw new InputError(usageMessage`${optionName("resume", { on: true })} needs ${optionName("out")} (the set folder)`);
  if (options.maxCost !== undefined && !options.prices) {
    const unpriced = config.models.findIndex((model) => model.prices === undefined && model.endpoint === undefined);
    if (unpriced >= 0) throw new InputError(usageMessage`${optionName("maxCost")} needs prices: ${optionName("prices")} (a price file), or ${source}: models[${unpriced}].prices`);
  }
  const cells = planCells(config, source);
  const directory = options.out ?? path.join("runs", `set-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  openSetDirectory(directory, config, options.resume ?? false);
  const configFolder = options.file === undefined ? process.cwd() : path.dirname(path.resolve(options.file));

  // One sandbox for every cell: the flag's, else the set's `sandbox:`, else config.json's, else local.
  const given = options.sandbox === undefined ? undefined : parseSandboxSetting(options.sandbox, "--sandbox");
  const sandbox = configuredSandbox(rllmHome(), given ?? config.sandbox);
  const services = await openRunServices({ cache: options.cache, cacheTtl: options.cacheTtl, rpm: config.rpm ?? options.rpm, tpm: config.tpm ?? options.tpm, prices: options.prices, sandbox });
  const slots = new EpisodeSlots(config.concurrency, cells.length);
  const costBudget = new CostBudget(options.maxCost);
  const isPriced = options.prices !== undefined || config.models.some((model) => model.prices !== undefined || model.endpoint !== undefined);
  // A cell's fatal error stops the others as Ctrl-C would, then is reported.
  const failure = new AbortController();
  const signal = hooks.signal ? AbortSignal.any([hooks.signal, failure.signal]) : failure.signal;
  const notify = hooks.notify ?? (() => {});
  let outcomes: PromiseSettledResult<void>[];
  try {
    if (services.cacheRecovery) notify(services.cacheRecovery);
    hooks.onStart?.(
      cells.map((cell) => cell.label),
      isPriced ? () => costBudget.spent() : undefined,
    );
    outcomes = await Promise.allSettled(
      cells.map(async (cell) => {
        let tookLane = false;
        try {
          const plan = await planEval(cellOptions(config, cell, options, path.join(directory, cell.label), configFolder, sandbox), { warn: (message) => notify(`warning: ${message}`) });
          const outcome = await executeEvalPlan(plan, services, {
            signal,
            costBudget,
            takeLane: () => {
              tookLane = true;
              return slots.lane();
            },
            onProgress: (progress) => hooks.onCellProgress?.(cell.label, progress),
            notify,
          });
          hooks.onCellEnd?.(cell.label, outcome);
        } catch (error) {
          failure.abort(error);
          throw error;
        } finally {
          if (!tookLane) slots.withdraw();
        }
      }),
    );
  } finally {
    await services.close();
  }
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  if (hooks.signal?.aborted) return { directory, isInterrupted: true, rows: [] };
  const rows = cells.map((cell) => {
    const summaryFile = runPaths(path.join(directory, cell.label)).summary;
    return setComparisonRow(modelLabel(cell.model), benchmarkLabel(cell.benchmark), cell.label, existsSync(summaryFile) ? readRunSummary(summaryFile) : undefined);
  });
  writeJsonAtomically(path.join(directory, "set-summary.json"), { formatVersion: 1, cells: rows });
  return { directory, isInterrupted: false, rows };
}

/** The config with its defaults, or an InputError naming each bad field by its path (`models[1].baseUrl`, `benchmarks[0].rerank[1]`). */
export function parseEvalSetConfig(input: unknown, source: string): EvalSetConfig {
  const parsed = EvalSetConfigSchema.safeParse(input);
  if (!parsed.success) throw new InputError(parsed.error.issues.map((issue) => `${source}: ${issuePath(issue.path)}: ${issue.message}`).join("\n"));
  const methods = z.array(SelectionMethodSchema);
  const problems = parsed.data.benchmarks.flatMap((benchmark, index) => {
    const result = methods.safeParse(benchmark.rerank ?? []);
    return result.success ? [] : result.error.issues.map((issue) => `${source}: ${issuePath(["benchmarks", index, "rerank", ...issue.path])}: ${issue.message}`);
  });
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  return parsed.data;
}

/** The cells to run, in matrix order; labels must be unique and the matrix must name known labels. */
function planCells(config: EvalSetConfig, source: string): Cell[] {
  const models = new Map<string, EvalSetModel>();
  const benchmarks = new Map<string, EvalSetBenchmark>();
  config.models.forEach((model, index) => {
    if (models.has(modelLabel(model))) throw new InputError(`${source}: models[${index}].name: label "${modelLabel(model)}" is used twice; give each model a distinct name`);
    models.set(modelLabel(model), model);
  });
  config.benchmarks.forEach((benchmark, index) => {
    if (benchmarks.has(benchmarkLabel(benchmark))) throw new InputError(`${source}: benchmarks[${index}].name: label "${benchmarkLabel(benchmark)}" is used twice; give each a distinct name`);
    benchmarks.set(benchmarkLabel(benchmark), benchmark);
  });
  const pairs = config.matrix ?? [...models.keys()].flatMap((model) => [...benchmarks.keys()].map((benchmark) => ({ model, benchmark })));
  return pairs.map((pair, index) => {
    const model = models.get(pair.model);
    const benchmark = benchmarks.get(pair.benchmark);
    if (!model) throw new InputError(`${source}: matrix[${index}].model: no model labelled "${pair.model}"`);
    if (!benchmark) throw new InputError(`${source}: matrix[${index}].benchmark: no benchmark labelled "${pair.benchmark}"`);
    return { model, benchmark, label: `${pair.model}__${pair.benchmark}` };
  });
}

/** set.json as written by an earlier run: compared key by key with the set config of this one. */
const SavedSetConfigSchema = z.record(z.string(), z.unknown());

/** A new set needs a fresh folder; a resume needs the same set config as the one saved there. */
function openSetDirectory(directory: string, config: EvalSetConfig, resume: boolean): void {
  const saved = path.join(directory, "set.json");
  if (resume) {
    if (!existsSync(saved)) throw new InputError(usageMessage`${optionName("resume")}: ${saved} not found (is ${directory} an eval set folder?)`);
    const savedConfig = SavedSetConfigSchema.safeParse(parseJsonFile(saved));
    if (!savedConfig.success) throw new InputError(describeIssues(saved, undefined, savedConfig.error));
    const differences = diffConfigs(savedConfig.data, config);
    if (differences.length > 0) throw new InputError(usageMessage`${optionName("resume")}: the eval set in ${directory} was made from a different file:\n${differences.join("\n")}`);
    return;
  }
  if (existsSync(saved)) throw new InputError(usageMessage`${directory} already holds an eval set: pass ${optionName("resume", { on: true })} to finish it, or set ${optionName("out")} to another folder`);
  mkdirSync(directory, { recursive: true });
  writeJsonAtomically(saved, config);
}

/** One cell's options: the set's shared settings, the model's endpoint and sampling, the benchmark's settings. */
function cellOptions(config: EvalSetConfig, cell: Cell, options: EvalSetOptions, out: string, configFolder: string, sandbox: SandboxSetting): EvalOptionsInput {
  const { model, benchmark } = cell;
  return {
    benchmark: benchmark.benchmark,
    ...(options.backend !== undefined ? { backend: options.backend } : {}),
    tokenizer: options.tokenizer,
    maxRetries: options.maxRetries,
    retryBudget: options.retryBudget,
    cache: options.cache,
    cacheTtl: options.cacheTtl,
    prices: options.prices,
    maxCost: options.maxCost,
    endpoint: model.endpoint,
    baseUrl: model.baseUrl,
    model: model.model,
    apiKeyEnv: model.apiKeyEnv,
    price: model.prices,
    sampling: model.sampling,
    data: benchmark.data === undefined ? undefined : path.resolve(configFolder, benchmark.data),
    split: benchmark.split,
    cookbook: benchmark.cookbook,
    cookbookOptions: { ...benchmark.set, ...options.cookbookOptions },
    limit: benchmark.limit,
    attempts: benchmark.attempts,
    // parseEvalSetConfig has checked the methods' names.
    ...(benchmark.rerank ? { rerank: { methods: benchmark.rerank as SelectionMethod[], budget: benchmark.budget } } : {}),
    seed: config.seed,
    concurrency: config.concurrency,
    timeoutSeconds: config.timeoutSeconds,
    sandbox,
    out,
    // A cell a killed set had started resumes; one it never reached starts.
    resume: existsSync(runPaths(out).config),
  };
}
