/** `rllm eval --config evalset.yaml`: every cell of models × benchmarks as its own run folder under the set folder, run at once, then a comparison table. */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import {
  EvalSetConfigSchema,
  benchmarkLabel,
  issuePath,
  modelLabel,
  type EvalSetBenchmark,
  type EvalSetConfig,
  type EvalSetModel,
} from "../../core/eval-set-config.js";
import { diffConfigs, runPaths, writeJsonAtomically } from "../../runs/run-directory.js";
import { readRunSummary } from "../../runs/read-run-files.js";
import { SelectionMethodSchema } from "../../tournament/selection-methods.js";
import { assertInputFile } from "../../core/check-paths.js";
import { openRunServices } from "../../evaluation/run-services.js";
import { formatSetTable, setComparisonRow } from "../format-set-table.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import { SetProgress } from "../set-progress.js";
import { CostBudget } from "../../engine/cost-budget.js";
import { EpisodeSlots } from "../../engine/episode-slots.js";
import type { EvalFlags } from "./eval-command.js";
import { runEvalCommand, type SetCell } from "./eval.js";

/** One cell of the matrix. */
interface Cell {
  model: EvalSetModel;
  benchmark: EvalSetBenchmark;
  label: string;
}

/**
 * Runs (or with --resume, finishes) the eval set in `flags.config`; returns the exit code. The cells run at once,
 * sharing the file's `concurrency` (episodes in flight across the set), the rate limits of each endpoint and one
 * --max-cost budget.
 */
export async function runEvalSet(flags: EvalFlags): Promise<number> {
  const file = flags.config!;
  if (flags.resume && !flags.out) throw new InputError("--resume needs --out <set directory>");
  const config = readEvalSetConfig(file);
  if (flags.maxCost !== undefined && !flags.prices) {
    const unpriced = config.models.findIndex((model) => model.prices === undefined && model.endpoint === undefined);
    if (unpriced >= 0) throw new InputError(`--max-cost needs prices: --prices prices.json, or ${file}: models[${unpriced}].prices`);
  }
  const cells = planCells(config, file);
  const directory = flags.out ?? path.join("runs", `set-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  openSetDirectory(directory, config, flags.resume);

  const services = await openRunServices({ cache: flags.cache, cacheTtl: flags.cacheTtl, rpm: config.rpm ?? flags.rpm, tpm: config.tpm ?? flags.tpm, prices: flags.prices });
  const slots = new EpisodeSlots(config.concurrency, cells.length);
  const costBudget = new CostBudget(flags.maxCost);
  const isPriced = flags.prices !== undefined || config.models.some((model) => model.prices !== undefined || model.endpoint !== undefined);
  const progress = new SetProgress(
    cells.map((cell) => cell.label),
    isPriced ? () => costBudget.spent() : undefined,
  );
  const interrupt = interruptOnCtrlC("rllm: stopping every cell (finished episodes are kept; Ctrl-C again to quit at once)");
  // A cell's fatal error stops the others as Ctrl-C would, then is reported.
  const failure = new AbortController();
  const signal = AbortSignal.any([interrupt.signal, failure.signal]);
  let outcomes: PromiseSettledResult<number>[];
  try {
    if (services.cacheRecovery) console.error(`rllm: ${services.cacheRecovery}`);
    outcomes = await Promise.allSettled(
      cells.map(async (cell) => {
        let tookLane = false;
        const setCell: SetCell = {
          label: cell.label,
          takeLane: () => {
            tookLane = true;
            return slots.lane();
          },
          costBudget,
          signal,
          report: (counts) => progress.report(cell.label, counts),
        };
        try {
          const cellFlags = flagsForCell(flags, config, cell, path.join(directory, cell.label), path.dirname(path.resolve(file)));
          return await runEvalCommand(cell.benchmark.benchmark, cellFlags, services, cell.model.prices, setCell);
        } catch (error) {
          failure.abort(error);
          throw error;
        } finally {
          if (!tookLane) slots.withdraw();
        }
      }),
    );
  } finally {
    interrupt.release();
    progress.finish();
    services.close();
  }
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  const resumeHint = `rllm eval --config ${file} --out ${directory} --resume`;
  if (interrupt.signal.aborted) {
    console.error(`rllm: eval set interrupted; finish with: ${resumeHint}`);
    return 1;
  }
  const rows = cells.map((cell) => {
    const summaryFile = runPaths(path.join(directory, cell.label)).summary;
    return setComparisonRow(modelLabel(cell.model), benchmarkLabel(cell.benchmark), cell.label, existsSync(summaryFile) ? readRunSummary(summaryFile) : undefined);
  });
  writeJsonAtomically(path.join(directory, "set-summary.json"), { formatVersion: 1, cells: rows });
  console.log(`\neval set ${path.basename(file)}  →  ${directory}`);
  console.log(formatSetTable(rows));
  if (rows.some((row) => row.status !== "complete")) console.error(`rllm: the eval set is incomplete; finish with: ${resumeHint} (with a higher --max-cost, or none)`);
  return Math.max(0, ...outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : 1)));
}

/** Reads and validates the eval set file; a bad field is an input error naming its path (`models[1].baseUrl`). */
export function readEvalSetConfig(file: string): EvalSetConfig {
  assertInputFile("--config", file);
  let raw: unknown;
  try {
    const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file}: not valid ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"} (${(error as Error).message})`);
  }
  const parsed = EvalSetConfigSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(parsed.error.issues.map((issue) => `${file}: ${issuePath(issue.path)}: ${issue.message}`).join("\n"));
  const methods = z.array(SelectionMethodSchema);
  const problems = parsed.data.benchmarks.flatMap((benchmark, index) => {
    const result = methods.safeParse(benchmark.rerank ?? []);
    return result.success ? [] : result.error.issues.map((issue) => `${file}: ${issuePath(["benchmarks", index, "rerank", ...issue.path])}: ${issue.message}`);
  });
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  return parsed.data;
}

/** The cells to run, in matrix order; labels must be unique and the matrix must name known labels. */
function planCells(config: EvalSetConfig, file: string): Cell[] {
  const models = new Map<string, EvalSetModel>();
  const benchmarks = new Map<string, EvalSetBenchmark>();
  config.models.forEach((model, index) => {
    if (models.has(modelLabel(model))) throw new InputError(`${file}: models[${index}].name: label "${modelLabel(model)}" is used twice; give each model a distinct name`);
    models.set(modelLabel(model), model);
  });
  config.benchmarks.forEach((benchmark, index) => {
    if (benchmarks.has(benchmarkLabel(benchmark))) throw new InputError(`${file}: benchmarks[${index}].name: label "${benchmarkLabel(benchmark)}" is used twice; give each a distinct name`);
    benchmarks.set(benchmarkLabel(benchmark), benchmark);
  });
  const pairs = config.matrix ?? [...models.keys()].flatMap((model) => [...benchmarks.keys()].map((benchmark) => ({ model, benchmark })));
  return pairs.map((pair, index) => {
    const model = models.get(pair.model);
    const benchmark = benchmarks.get(pair.benchmark);
    if (!model) throw new InputError(`${file}: matrix[${index}].model: no model labelled "${pair.model}"`);
    if (!benchmark) throw new InputError(`${file}: matrix[${index}].benchmark: no benchmark labelled "${pair.benchmark}"`);
    return { model, benchmark, label: `${pair.model}__${pair.benchmark}` };
  });
}

/** A new set needs a fresh folder; --resume needs the same set file content as the one saved there. */
function openSetDirectory(directory: string, config: EvalSetConfig, resume: boolean): void {
  const saved = path.join(directory, "set.json");
  if (resume) {
    if (!existsSync(saved)) throw new InputError(`--resume: ${saved} not found (is ${directory} an eval set folder?)`);
    const differences = diffConfigs(JSON.parse(readFileSync(saved, "utf8")) as Record<string, unknown>, config);
    if (differences.length > 0) throw new InputError(`--resume: the eval set in ${directory} was made from a different file:\n${differences.join("\n")}`);
    return;
  }
  if (existsSync(saved)) throw new InputError(`${directory} already holds an eval set: pass --resume to finish it, or choose another --out`);
  mkdirSync(directory, { recursive: true });
  writeJsonAtomically(saved, config);
}

/** The flags of one cell's run: the set's settings, the model's endpoint and sampling, the benchmark's settings. */
function flagsForCell(flags: EvalFlags, config: EvalSetConfig, cell: Cell, out: string, configFolder: string): EvalFlags {
  const { model, benchmark } = cell;
  return {
    ...flags,
    config: undefined,
    endpoint: model.endpoint,
    baseUrl: model.baseUrl,
    model: model.model,
    apiKeyEnv: model.apiKeyEnv,
    temperature: model.sampling.temperature,
    topP: model.sampling.topP,
    maxTokens: model.sampling.maxTokens,
    data: benchmark.data === undefined ? undefined : path.resolve(configFolder, benchmark.data),
    split: benchmark.split,
    cookbook: benchmark.cookbook,
    limit: benchmark.limit,
    attempts: benchmark.attempts,
    rerank: benchmark.rerank as EvalFlags["rerank"],
    budget: benchmark.budget,
    set: Object.entries(benchmark.set).map(([key, value]) => `${key}=${value}`),
    seed: config.seed,
    concurrency: config.concurrency,
    timeout: config.timeoutSeconds,
    out,
    // A cell a killed set had started resumes; one it never reached starts.
    resume: existsSync(runPaths(out).config),
  };
}
