/** A run directory: config.json (what produced the run), episodes.jsonl, summary.json, tournaments.jsonl; and the resume check. */
import { existsSync, mkdirSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { runFormatVersion } from "../core/run-summary.js";
import { defaultSandboxSetting } from "../core/sandbox-setting.js";
import { readRunConfig } from "./read-run-files.js";

export interface RunPaths {
  directory: string;
  config: string;
  episodes: string;
  summary: string;
  /** The `--rerank` records, one line per task and method. */
  tournaments: string;
}

/** The files of the run in `directory`. */
export function runPaths(directory: string): RunPaths {
  return {
    directory,
    config: path.join(directory, "config.json"),
    episodes: path.join(directory, "episodes.jsonl"),
    summary: path.join(directory, "summary.json"),
    tournaments: path.join(directory, "tournaments.jsonl"),
  };
}

/** Differences between a saved config and the current one, as `field: saved → now` lines. */
export function diffConfigs(saved: Record<string, unknown>, current: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(saved), ...Object.keys(current)])].sort();
  return keys
    .filter((key) => JSON.stringify(saved[key]) !== JSON.stringify(current[key]))
    .map((key) => `  ${key}: ${JSON.stringify(saved[key]) ?? "(unset)"} → ${JSON.stringify(current[key]) ?? "(unset)"}`);
}

/**
 * Checks that a run can be made in `directory` without writing anything: a new run needs an empty or absent
 * directory; `resume` needs the same config as the one saved there, otherwise it refuses and shows the difference.
 * `normalize` (applied to both sides) fills in what a config saved by an older version was written without.
 */
export function checkRunDirectory(directory: string, config: Record<string, unknown>, resume: boolean, normalize: (config: Record<string, unknown>) => Record<string, unknown> = (given) => given): RunPaths {
  const paths = runPaths(directory);
  if (resume) {
    if (!existsSync(paths.config)) throw new InputError(usageMessage`${optionName("resume")}: ${paths.config} not found (is ${directory} a run directory?)`);
    // The format version is how the file is written, and the resources what the machine gave the run (an interpreter's
    // path, pool sizes), not settings of the run: old run folders resume, and so does a run on another machine.
    const { formatVersion: _savedVersion, resources: _savedResources, ...saved } = readRunConfig(paths.config);
    // A run made before the sandbox was recorded ran in the default one, local: resumed there, it matches.
    const isDefaultSandbox = JSON.stringify(config.sandbox) === JSON.stringify(defaultSandboxSetting);
    const differences = diffConfigs(normalize(saved.sandbox === undefined && isDefaultSandbox ? { ...saved, sandbox: config.sandbox } : saved), normalize(config));
    if (differences.length > 0) {
      throw new InputError(usageMessage`${optionName("resume")}: the run in ${directory} was made with a different config:\n${differences.join("\n")}`);
    }
    return paths;
  }
  if (existsSync(paths.config) || existsSync(paths.episodes)) {
    throw new InputError(usageMessage`${directory} already holds a run: pass ${optionName("resume", { on: true })} to finish it, or set ${optionName("out")} to another folder`);
  }
  return paths;
}

/**
 * Prepares the run directory after `checkRunDirectory`'s checks: a new run's directory is created and its config
 * saved, with `recorded` (what the run was given, such as its `resources`) beside it, which --resume does not compare.
 */
export function openRunDirectory(
  directory: string,
  config: Record<string, unknown>,
  resume: boolean,
  recorded: { resources?: unknown } = {},
  normalize?: (config: Record<string, unknown>) => Record<string, unknown>,
): RunPaths {
  const paths = checkRunDirectory(directory, config, resume, normalize);
  if (resume) return paths;
  mkdirSync(directory, { recursive: true });
  writeJsonAtomically(paths.config, { formatVersion: runFormatVersion, ...config, ...recorded });
  return paths;
}

/** Writes JSON through a temporary file and a rename, so a crash never leaves half a file. */
export function writeJsonAtomically(file: string, value: unknown): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(value, null, 2) + "\n");
  renameSync(temporary, file);
}
