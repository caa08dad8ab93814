/** `rllm eval --config evalset.yaml`: reads the set file, runs it through `evaluateSet` with one progress line and Ctrl-C, prints the comparison table. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { assertInputFile } from "../../core/check-paths.js";
import { InputError } from "../../core/errors/input-error.js";
import type { EvalSetConfig } from "../../core/eval-set-config.js";
import { evaluateSet, parseEvalSetConfig } from "../../evaluation/evaluate-set.js";
import { formatSetTable } from "../format-set-table.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import { reportEvalOutcome } from "../report-eval-outcome.js";
import { SetProgress } from "../set-progress.js";
import { resumeCommand } from "../resume-command.js";
import type { EvalFlags } from "./eval-flags.js";
import { evalSetOptionsFromFlags } from "./eval-options-from-flags.js";

/**
 * Runs (or with --resume, finishes) the eval set in `file`; returns the exit code: the worst cell's (1 when a cell
 * failed, is incomplete or under --fail-under), 1 when interrupted.
 */
export async function runEvalSet(flags: EvalFlags, file: string): Promise<number> {
  const config = readEvalSetConfig(file);
  const interrupt = interruptOnCtrlC("rllm: stopping every cell (finished episodes are kept; Ctrl-C again to quit at once)");
  let progress: SetProgress | undefined;
  const exitCodes: number[] = [];
  let outcome: Awaited<ReturnType<typeof evaluateSet>>;
  try {
    outcome = await evaluateSet(config, evalSetOptionsFromFlags(flags, file), {
      signal: interrupt.signal,
      onStart: (labels, spent) => {
        progress = new SetProgress(labels, spent);
      },
      onCellProgress: (label, counts) => progress?.report(label, counts),
      onCellEnd: (label, cell) => {
        progress?.report(label, cell.progress);
        exitCodes.push(reportEvalOutcome(cell, { cellLabel: label, resumeHint: "", failUnder: flags.failUnder }));
      },
      notify: (message) => console.error(`rllm: ${message}`),
    });
  } finally {
    interrupt.release();
    progress?.finish();
  }
  const resumeHint = resumeCommand(process.argv.slice(2), outcome.directory);
  if (outcome.isInterrupted) {
    console.error(`rllm: eval set interrupted; finish with: ${resumeHint}`);
    return 1;
  }
  console.log(`\neval set ${path.basename(file)}  →  ${outcome.directory}`);
  console.log(formatSetTable(outcome.rows));
  if (outcome.rows.some((row) => row.status !== "complete")) console.error(`rllm: the eval set is incomplete; finish with: ${resumeHint} (with a higher --max-cost, or none)`);
  return Math.max(0, ...exitCodes);
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
  return parseEvalSetConfig(raw, file);
}
