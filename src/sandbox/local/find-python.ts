/** Reads a Python interpreter's answer to the probe: its real executable and the installation prefix to mount read-only. */
import { realpathSync } from "node:fs";
import { z } from "zod";
import type { PythonProbeOutcome } from "./python-probe.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";

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
const remedy = "Pass --python <path of a Python 3 interpreter> or set RLLM_PYTHON";

/** The installation `command` described in `result`; SandboxUnavailableError, naming the command, when it did not. */
export function findPython(command: string, result: PythonProbeOutcome): PythonInstallation {
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
