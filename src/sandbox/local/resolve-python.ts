/**
 * The interpreter the local sandbox runs programs with, resolved once per run and named with its packages, so that a
 * verdict never depends silently on whatever `python3` a machine has first on PATH. In order: the run's `--python`,
 * `$RLLM_PYTHON`, the pinned sandbox environment (integrations/python/sandbox.txt, built by
 * `scripts/python-env.sh sandbox`), and only then `python3` on PATH, which the record says plainly.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { packagePath } from "../../core/package-root.js";
import type { PythonRecord } from "../../core/sandbox.js";
import { findPython, type PythonInstallation } from "./find-python.js";
import { probePython } from "./python-probe.js";

/** An interpreter and the record config.json keeps of it. */
export interface ResolvedPython {
  installation: PythonInstallation;
  record: PythonRecord;
}

/** Where to look; the defaults are the process's environment and the checkout's lock file. */
export interface ResolvePythonOptions {
  /** The run's `--python`. */
  python?: string;
  environment?: NodeJS.ProcessEnv;
  /** The pinned environment's lock file. */
  lockFile?: string;
}

/** The lock file of the sandbox environment in this checkout (an installed package has none). */
export const sandboxLockFile = packagePath("integrations", "python", "sandbox.txt");

/** Resolves the interpreter; SandboxUnavailableError names a given one that does not run. */
export async function resolvePython(options: ResolvePythonOptions = {}): Promise<ResolvedPython> {
  const environment = options.environment ?? process.env;
  const lockFile = options.lockFile ?? sandboxLockFile;
  const lock = readLock(lockFile);
  const choice = chooseInterpreter(options.python, environment, lockFile, lock);
  const installation = findPython(choice.command, await probePython(choice.command));
  const packages = installedVersions(installation.sitePackages, lock?.packages ?? []);
  return { installation, record: { executable: installation.executable, version: installation.version, source: choice.source, packages } };
}

/** The command to run and why it is the one. */
function chooseInterpreter(given: string | undefined, environment: NodeJS.ProcessEnv, lockFile: string, lock: Lock | undefined): { command: string; source: string } {
  if (given !== undefined) return { command: given, source: "--python" };
  if (environment.RLLM_PYTHON) return { command: environment.RLLM_PYTHON, source: "$RLLM_PYTHON" };
  const pinned = lock && findPinnedEnvironment(environment, lock.text);
  if (pinned) return { command: pinned, source: `the pinned sandbox environment (${path.basename(lockFile)})` };
  const why = lock ? "the pinned sandbox environment is not built (scripts/python-env.sh sandbox)" : `there is no ${path.basename(lockFile)} to pin one (an installed package)`;
  return { command: "python3", source: `python3 on PATH: ${why}` };
}

interface Lock {
  text: string;
  /** The package names it pins, normalised (PEP 503). */
  packages: string[];
}

function readLock(file: string): Lock | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const packages = text
    .split("\n")
    .map((line) => /^([A-Za-z0-9][A-Za-z0-9._-]*)==/.exec(line.trim())?.[1])
    .filter((name): name is string => name !== undefined)
    .map(normalizeName);
  return { text, packages };
}

/**
 * The python of a built environment of this lock: scripts/python-env.sh builds `sandbox-<hash>` under
 * $RLLM_PYTHON_ENVS (default ~/.cache/rllm-ts/python), marks it complete and keeps the lock it was built from beside
 * it, which must be this one. The newest such environment wins.
 */
function findPinnedEnvironment(environment: NodeJS.ProcessEnv, lockText: string): string | undefined {
  const cache = environment.RLLM_PYTHON_ENVS || path.join(environment.HOME || os.homedir(), ".cache", "rllm-ts", "python");
  if (!existsSync(cache)) return undefined;
  const candidates = readdirSync(cache)
    .filter((name) => name.startsWith("sandbox-"))
    .map((name) => path.join(cache, name))
    .filter((folder) => existsSync(path.join(folder, ".complete")) && readOptional(path.join(folder, "lock.txt")) === lockText && existsSync(path.join(folder, "bin", "python")))
    .sort((left, right) => statSync(path.join(right, ".complete")).mtimeMs - statSync(path.join(left, ".complete")).mtimeMs);
  return candidates[0] && path.join(candidates[0], "bin", "python");
}

/**
 * The version of each of `names` (normalised) installed in `sitePackages`, from its .dist-info or .egg-info folder, or
 * null; each folder is read once.
 */
export function installedVersions(sitePackages: readonly string[], names: readonly string[]): Record<string, string | null> {
  const versions: Record<string, string | null> = Object.fromEntries(names.map((name) => [name, null]));
  if (names.length === 0) return versions;
  for (const folder of sitePackages) {
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const match = /^(.+?)-([^-]+?)(?:-py[\d.]+)?\.(?:dist|egg)-info$/.exec(entry);
      if (!match) continue;
      const name = normalizeName(match[1]!);
      // The first folder that has it wins, as on sys.path.
      if (versions[name] === null) versions[name] = match[2]!;
    }
  }
  return versions;
}

/** PEP 503: case and runs of -, _ and . do not tell names apart. */
function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
