/** The `finqa` benchmark: financial questions answered by querying a company's tables (original FinQA or rLLM/finqa). */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { InputError, packagePath, type Benchmark, type LoadTasksOptions, type Task } from "rllm-ts/core";
import { originalRowsToTasks, readOriginalFinqaRows } from "./original-format.js";
import { pullRllmFinqa, rllmFinqaFolder } from "./pull-rllm-finqa.js";
import { readRllmFinqaRows, rllmRowsToTasks } from "./rllm-format.js";

const bundledSample = "benchmarks/finqa/data/finqa_sample.jsonl";

/**
 * Tasks from, in order: `--data` (a FinQA `.json`/`.jsonl` file, an rLLM `<split>_finqa.csv`, or an
 * rLLM data folder), the pulled rLLM/finqa dataset, or the bundled 50-record test sample.
 */
export async function loadFinqaTasks(options: LoadTasksOptions): Promise<Task[]> {
  const split = options.split ?? "test";
  if (options.dataFile !== undefined) return loadFromPath(path.resolve(options.dataFile), split);
  const pulled = rllmFinqaFolder(options.home);
  if (existsSync(path.join(pulled, `${split}_finqa.csv`))) return loadFromPath(pulled, split);
  if (split !== "test") {
    throw new InputError(`finqa: the bundled sample is test data only; run "rllm dataset pull finqa" for the ${split} split`);
  }
  const file = packagePath(bundledSample);
  return originalRowsToTasks(readOriginalFinqaRows(file), file);
}

function loadFromPath(target: string, split: string): Task[] {
  if (!existsSync(target)) throw new InputError(`${target}: no such file or folder`);
  if (statSync(target).isDirectory()) {
    const questions = path.join(target, `${split}_finqa.csv`);
    return rllmRowsToTasks(readRllmFinqaRows(questions), questions, path.join(target, "company_tables"));
  }
  if (target.endsWith(".csv")) {
    return rllmRowsToTasks(readRllmFinqaRows(target), target, path.join(path.dirname(target), "company_tables"));
  }
  return originalRowsToTasks(readOriginalFinqaRows(target), target);
}

export const finqaBenchmark: Benchmark = {
  name: "finqa",
  description:
    "FinQA: numeric questions over companies' financial tables, answered with SQL and calculator tools; " +
    "50 bundled test records (original FinQA), or rLLM/finqa after `rllm dataset pull finqa`.",
  defaultCookbook: "finqa",
  catalog: { kind: "agentic", size: "4,030 train · 522 val · 558 test", licence: "MIT", grader: "FinQA verifier + table access (judge for free text)" },
  bundledSample,
  loadTasks: loadFinqaTasks,
  pull: (options) => pullRllmFinqa(options, bundledSample),
};
