/** Resolves the Python interpreter that runs programs: its real executable and the installation prefix to mount read-only. */
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { z } from "zod";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

export interface PythonInstallation {
  /** The real interpreter binary (pyenv shims and symlinks resolved). */
  executable: string;
  /** sys.base_prefix: the standard library and site-packages live under it. */
  prefix: string;
  version: string;
  /** site-packages directories; the launcher runs with -S (site.py can cost 100 ms) and adds these itself. */
  sitePackages: string[];
}

const ProbeSchema = z.tuple([z.string(), z.string(), z.string(), z.array(z.string())]);
const remedy = "Pass --set python=<path of a Python 3 interpreter> or set RLLM_PYTHON";
// -S skips site.py's start-up work (each .pth file of the installation, about 100 ms under load); site.venv is the
// one part of it that decides the site-packages of a virtual environment, so the answer is the same as without -S.
const probe = "import sys, json, site; site.venv(set()); print(json.dumps([sys.executable, sys.base_prefix, sys.version.split()[0], site.getsitepackages()]))";

/** Asks `command` (default `python3` on PATH, or $RLLM_PYTHON) where it really lives. */
export function findPython(command = process.env.RLLM_PYTHON || "python3"): PythonInstallation {
  const result = spawnSync(command, ["-I", "-S", "-c", probe], { encoding: "utf8", timeout: 30_000 });
  if (result.status !== 0) {
    throw new SandboxUnavailableError(`cannot run the Python interpreter "${command}": ${result.error?.message ?? result.stderr.trim()}`, remedy);
  }
  const parsed = ProbeSchema.safeParse(safeJson(result.stdout));
  if (!parsed.success) throw new SandboxUnavailableError(`"${command}" is not a Python 3 interpreter (it answered: ${result.stdout.trim().slice(0, 200)})`, remedy);
  const [executable, prefix, version, sitePackages] = parsed.data;
  return { executable: realpathSync(executable), prefix: realpathSync(prefix), version, sitePackages };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
