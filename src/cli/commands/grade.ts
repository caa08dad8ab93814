/**
 * `rllm grade --verifier <name> --input rows.jsonl`'s action: grades rows with a verifier, writes verdict rows, prints
 * accuracy. The run's pool (math's grading threads, code's sandbox slots) was started as the flags parsed
 * (grade-start.ts), so it has been warming up while this module and the verifier loaded; the action owns it and closes
 * it, on a failure or Ctrl-C too.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { readJsonlRows } from "../../core/dataset.js";
import { InputError } from "../../core/errors/input-error.js";
import type { Score } from "../../core/score.js";
import { gradeVerifiers } from "../../../verifiers/registry.js";
import { infraErrorRate } from "../../metrics/infra-error-rate.js";
import { assertInputFile, assertWritableOutput } from "../../core/check-paths.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import type { GradeFlags } from "./grade-flags.js";
import { codeFlags, verifierFlags, type GradeStart } from "./grade-start.js";

/** Grades the rows on the run `started`, writes the verdict rows and prints the accuracy. */
export async function gradeAction(flags: GradeFlags, _args: string[], command: Command, started: GradeStart): Promise<void> {
  const { resources, warming } = started;
  const interrupt = interruptOnCtrlC("rllm: stopping: closing the sandbox (Ctrl-C again to quit at once)");
  try {
    const verifier = await gradeVerifiers.load(flags.verifier);
    assertCodeFlagsFit(verifier.name, flags, command);
    assertInputFile("--input", flags.input);
    if (flags.output) assertWritableOutput("--output", flags.output);
    const rows = readJsonlRows(flags.input, verifier.rowSchema);
    await warming;
    const progress = progressLine(rows.length);
    const grading = verifier.gradeRows(
      rows,
      { concurrency: flags.concurrency, flags: verifierFlags(flags), onProgress: progress },
      { sandbox: resources.sandbox, pool: resources.pool, signal: interrupt.signal },
    );
    const scores = await untilInterrupted(grading, interrupt.signal);
    progress(rows.length, rows.length, true);
    writeVerdicts(rows, scores, flags.output);
  } finally {
    interrupt.release();
    await started.close();
  }
}

/** The verdict rows, to `output` or stdout, and the summary line. */
function writeVerdicts(rows: unknown[], scores: readonly Score[], output: string | undefined): void {
  const lines = rows.map((row, index) => JSON.stringify({ ...(row as object), ...scores[index] }));
  const text = lines.join("\n") + "\n";
  if (output) writeFileSync(output, text);
  else process.stdout.write(text);
  const summary = summarize(scores);
  (output ? console.log : console.error)(summary);
  // Nothing graded: every row failed for the infrastructure (a sandbox service lost mid-run, say), which a 0 exit would hide.
  const cause = nothingGradedCause(scores);
  if (cause !== undefined) {
    console.error(`rllm: nothing could be graded: every row was an infrastructure error (${cause})`);
    process.exitCode = 1;
  }
}

/** The commonest cause when every row is an infrastructure error, else undefined (some row was graded, or none given). */
export function nothingGradedCause(scores: readonly Score[]): string | undefined {
  if (scores.length === 0 || !scores.every((score) => score.status === "unscored" && score.signals.infraError === 1)) return undefined;
  const counts = new Map<string, number>();
  for (const score of scores) counts.set(score.explanation ?? "no cause given", (counts.get(score.explanation ?? "no cause given") ?? 0) + 1);
  const [cause, count] = [...counts].sort((first, second) => second[1] - first[1])[0]!;
  return count === scores.length ? cause : `${cause}, ${count} of ${scores.length} rows`;
}

/** The grading's scores, or a rejection once Ctrl-C has stopped it (its pools are closed under it). */
function untilInterrupted<Value>(work: Promise<Value>, signal: AbortSignal): Promise<Value> {
  if (signal.aborted) return Promise.reject(new Error("interrupted"));
  return Promise.race([work, new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Error("interrupted")), { once: true }))]);
}

/**
 * The code verifier's flags (--timeout...) given with another verifier: refused the way commander refuses an unknown
 * option, with the way to reach that verifier's own flags, instead of surfacing as a --set schema error.
 */
function assertCodeFlagsFit(verifierName: string, flags: GradeFlags, command: Command): void {
  if (verifierName === "code") return;
  const [key] = Object.keys(codeFlags(flags));
  if (key === undefined) return;
  const option = command.options.find((candidate) => candidate.attributeName() === key)!;
  throw new InputError(
    `unknown option '${option.long}' for --verifier ${verifierName} (it is a --verifier code option; ` +
      `${verifierName}'s own flags go through --set key=value${verifierName === "math" ? ", e.g. --set timeoutMs=5000" : ""}; see rllm grade --help)`,
  );
}

/**
 * "accuracy 87.2% (436/500 scored) | unscored 3 | timed out 2 | infra errors 0 (0.0%)": only scored rows are in the
 * accuracy; an unscored row with the signal infraError is an infrastructure error, any other unscored row is unscored;
 * the verifier's infra-error rate is over all rows.
 */
export function summarize(scores: readonly Score[]): string {
  const scored = scores.filter((score) => score.status === "scored");
  const infraErrors = scores.filter((score) => score.status === "unscored" && score.signals.infraError === 1).length;
  const unscored = scores.length - scored.length - infraErrors;
  const correct = scored.filter((score) => score.isCorrect).length;
  const timedOut = scores.filter((score) => score.signals.timedOut === 1).length;
  const accuracy = scored.length > 0 ? `${((100 * correct) / scored.length).toFixed(1)}%` : "-";
  const infraRate = `${(100 * infraErrorRate(infraErrors, scores.length)).toFixed(1)}%`;
  return `accuracy ${accuracy} (${correct}/${scored.length} scored) | unscored ${unscored} | timed out ${timedOut} | infra errors ${infraErrors} (${infraRate})`;
}

/** A `graded n/total` line on stderr: redrawn on a terminal, one line per 10% elsewhere. */
function progressLine(total: number): (done: number, total: number, isFinal?: boolean) => void {
  let lastTenth = -1;
  let lastWritten = -1;
  return (done, _total, isFinal = false) => {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r\x1b[2Kgraded ${done}/${total}${isFinal ? "\n" : ""}`);
      return;
    }
    // The final line always comes unless it was just written: rows a verifier skips (an empty ground truth) report
    // no progress, so the verifier's own count can stop short of the total.
    const tenth = Math.floor((done / Math.max(1, total)) * 10);
    if ((tenth > lastTenth && !isFinal) || (isFinal && lastWritten !== done)) {
      lastTenth = tenth;
      lastWritten = done;
      process.stderr.write(`graded ${done}/${total}\n`);
    }
  };
}
