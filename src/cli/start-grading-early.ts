/**
 * `rllm grade` starts its verifier's slow part before commander parses the flags: math's grading thread (its mathjs
 * warm-up, ~0.3 s) and code's sandbox slots (Python found, bubblewrap and the fork servers started and probed, ~0.1 s)
 * then run beside the CLI's own start-up (module loading, the flag schemas, reading the rows) instead of after it.
 * What starts early is only ever adopted when it matches what the command asks for (spare-math-worker.ts,
 * spare-code-grader.ts); the command itself still parses and checks every flag.
 */
import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import { setFlagsFromString } from "node:v8";

// The flags a spare code grader can be opened for; with any other (--set, --timeout, --sandbox-url...), none is.
const plainCodeFlags = new Set(["--verifier", "--input", "--output", "--concurrency"]);

let startedCodeGrader = false;

/** Starts what `argv` (a `rllm grade ...` command line) will grade with; never throws. */
export async function startGradingEarly(argv: readonly string[]): Promise<void> {
  const tokens = argv.slice(3);
  const verifier = verifierFlag(tokens);
  if (verifier === "math") {
    deferOptimizingCompiler();
    (await import("../../verifiers/math/spare-math-worker.js")).startSpareMathWorker();
  }
  const flags = flagValues(tokens);
  if (verifier === "code" && flags) await startSpareCodeGrader(flags);
}

/**
 * Makes V8 wait for 8 times as much work in a function (its interrupt budget; node 20's V8 default is 67,584) before
 * compiling it with its optimizing compiler, for the grading threads started after this. A grading run of a few
 * thousand rows ends within a second or two, before most of what TurboFan compiles would pay for its compilation,
 * which runs on V8's background threads and competes with the grading threads for the cores. Measured on 2 cores
 * (2026-12-06, the same run with and without, medians): the 3,000 bench rows 1.10 -> 0.85 s and 1.74 -> 1.20 CPU-s,
 * their 1,156 distinct rows 0.92 -> 0.78 s; 20,000 distinct synthetic rows (about 3 s) the same either way (2.75-2.93 s).
 * The flag is process-wide, so only the CLI's own process sets it, never the library for an application.
 */
function deferOptimizingCompiler(): void {
  setFlagsFromString("--interrupt-budget=540672");
}

/** Closes a spare code grader the command did not take (it failed first, or graded on a remote sandbox). */
export async function stopGradingEarly(): Promise<void> {
  if (!startedCodeGrader) return;
  const { closeSpareCodeGrader } = await import("../../verifiers/code/spare-code-grader.js");
  await closeSpareCodeGrader();
}

async function startSpareCodeGrader(flags: Map<string, string>): Promise<void> {
  if ([...flags.keys()].some((flag) => !plainCodeFlags.has(flag))) return;
  const concurrency = flags.has("--concurrency") ? Number(flags.get("--concurrency")) : os.availableParallelism();
  if (!Number.isInteger(concurrency) || concurrency < 1) return;
  const rowCount = countRows(flags.get("--input"), concurrency);
  if (rowCount === undefined) return;
  // Python is asked where it lives first: its answer arrives while the config and the grader's modules load (zod
  // among them) instead of after (python-probe.ts). With a sandbox service configured it goes unused.
  const { pythonCommand, startPythonProbe } = await import("../sandbox/local/python-probe.js");
  startPythonProbe(pythonCommand());
  if (await hasConfiguredSandbox()) return;
  const { startSpareCodeGrader: start } = await import("../../verifiers/code/spare-code-grader.js");
  // The options the code verifier opens its grader with for these flags (code-grade-verifier.ts).
  start({ concurrency: Math.min(concurrency, Math.max(1, rowCount)) });
  startedCodeGrader = true;
}

/** The value of --verifier (either spelling). */
function verifierFlag(tokens: readonly string[]): string | undefined {
  const index = tokens.indexOf("--verifier");
  if (index >= 0) return tokens[index + 1];
  return tokens.find((token) => token.startsWith("--verifier="))?.slice("--verifier=".length);
}

/** `--flag value` and `--flag=value` pairs; undefined when a token is not one (a bare flag, a positional argument). */
function flagValues(tokens: readonly string[]): Map<string, string> | undefined {
  const flags = new Map<string, string>();
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    if (!token.startsWith("--")) return undefined;
    const equals = token.indexOf("=");
    if (equals > 0) {
      flags.set(token.slice(0, equals), token.slice(equals + 1));
      index += 1;
    } else if (index + 1 < tokens.length) {
      flags.set(token, tokens[index + 1]!);
      index += 2;
    } else return undefined;
  }
  return flags;
}

// Past this size the input is not read here only to count its rows (the command reads it anyway).
const countedBytes = 1024 * 1024;

/**
 * The input's rows (its non-blank lines, as the grader will read them), at most `enough`: the grader opens no more
 * slots than rows, so only a small input needs counting, and a larger one is not read twice. Undefined when the input
 * cannot be read.
 */
function countRows(file: string | undefined, enough: number): number | undefined {
  if (file === undefined) return undefined;
  try {
    if (statSync(file).size > countedBytes) return enough;
    return Math.min(enough, readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").length);
  } catch {
    return undefined;
  }
}

/** Whether $RLLM_HOME/config.json names sandbox services (the run then grades there); a broken config counts as yes. */
async function hasConfiguredSandbox(): Promise<boolean> {
  try {
    const [{ readUserConfig }, { rllmHome }] = await Promise.all([import("../core/user-config.js"), import("../core/rllm-home.js")]);
    return readUserConfig(rllmHome()).sandbox !== undefined;
  } catch {
    return true;
  }
}
