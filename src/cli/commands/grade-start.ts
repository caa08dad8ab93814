/**
 * What `rllm grade` starts as soon as its flags parse, before its action and the verifier load: the run's resources
 * (the sandbox the flags or config.json name) and the verifier's pool, warming up (math's grading thread, code's
 * sandbox slots), sized to the rows. It loads only light modules, so that the pool's start overlaps the rest of the
 * CLI's start-up; the action takes the resources over and closes them.
 */
import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import { setFlagsFromString } from "node:v8";
import { rllmHome } from "../../core/rllm-home.js";
import { parseSetFlags } from "../../core/parse-set-flags.js";
import { configuredSandbox } from "../../core/user-config.js";
import { openRunResources, type OwnedRunResources } from "../../sandbox/run-resources.js";
import { gradeVerifiers } from "../../../verifiers/registry.js";
import { sandboxSettingFromFlags } from "../shared-flags.js";
import type { GradeFlags } from "./grade-flags.js";

/** The run's resources, and the pool's opening under way (rejecting as opening does). */
export interface GradeStart {
  resources: OwnedRunResources;
  warming: Promise<void>;
  close(): Promise<void>;
}

// Past this size the input is not read here only to count its rows (the command reads it anyway).
const countedBytes = 1024 * 1024;

/** Opens the run's resources for `flags` and starts its verifier's pool; an unknown verifier or sandbox throws. */
export function startGrading(flags: GradeFlags): GradeStart {
  const entry = gradeVerifiers.get(flags.verifier);
  const given = verifierFlags(flags);
  const sandbox = configuredSandbox(rllmHome(), sandboxSettingFromFlags(flags));
  if (entry.defersOptimizingCompiler) deferOptimizingCompiler();
  // The pool opens no more workers or slots than there are rows.
  const resources = openRunResources({ sandbox, concurrency: Math.min(flags.concurrency ?? os.availableParallelism(), countRows(flags.input)) });
  const warming = entry.loadPool ? entry.loadPool(given).then((pool) => resources.warm([pool])) : Promise.resolve();
  // Reported by the action, which awaits it.
  warming.catch(() => undefined);
  return { resources, warming, close: () => resources.close() };
}

/** The verifier's flags as its `gradeRows` gets them: `--set key=value` and the code verifier's own flags. */
export function verifierFlags(flags: GradeFlags): Record<string, unknown> {
  return { ...parseSetFlags(flags.set), ...codeFlags(flags) };
}

/** The code verifier's own command-line flags that were given (absent ones are left to the verifier's defaults). */
export function codeFlags(flags: Pick<GradeFlags, "timeout" | "runAllTests" | "floatTolerance">): Record<string, unknown> {
  const { timeout, runAllTests, floatTolerance } = flags;
  return Object.fromEntries(Object.entries({ timeout, runAllTests, floatTolerance }).filter(([, value]) => value !== undefined));
}

/** The input's rows (its non-blank lines), for a small input; a large one, or none readable, counts as rows enough for every core. */
function countRows(file: string): number {
  try {
    if (statSync(file).size > countedBytes) return Number.MAX_SAFE_INTEGER;
    return Math.max(1, readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").length);
  } catch {
    // The action refuses a missing input by name.
    return Number.MAX_SAFE_INTEGER;
  }
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
