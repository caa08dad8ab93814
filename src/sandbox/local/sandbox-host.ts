/** What this machine offers for isolation: bubblewrap, setpriv, the Python installation, and whether we run as root. */
import { readdirSync, readFileSync } from "node:fs";
import { findExecutable } from "../find-executable.js";
import { hostEntries, type BwrapMount } from "./bwrap-command.js";
import type { PythonInstallation } from "./find-python.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";

export interface SandboxHost {
  /** "bwrap": real isolation; "unsafe": rlimits, the seccomp filter and a scratch directory only (--unsafe-no-sandbox). */
  kind: "bwrap" | "unsafe";
  python: PythonInstallation;
  bwrap?: string;
  setpriv?: string;
  /** True when we are root: each pool slot then runs as its own unprivileged uid, so RLIMIT_NPROC counts one sandbox. */
  dropsToSlotUser: boolean;
  /** Processes this user already runs; RLIMIT_NPROC counts them too when we are not root. */
  existingProcesses: number;
  /** The host's top-level library and binary folders as the sandbox reproduces them (usrmerge's symlinks kept). */
  rootEntries: BwrapMount[];
}

const rootCandidates = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

export interface DetectSandboxHostOptions {
  /** Allow running without bubblewrap (rlimits only). */
  unsafeNoSandbox?: boolean;
  /** The interpreter programs run with (resolve-python.ts). */
  python: PythonInstallation;
  searchPath?: string;
}

/** Inspects the machine; throws SandboxUnavailableError when no sandbox exists and unsafe mode was not asked for. */
export function detectSandboxHost(options: DetectSandboxHostOptions): SandboxHost {
  const bwrap = findExecutable("bwrap", options.searchPath);
  const isRoot = process.getuid?.() === 0;
  const setpriv = isRoot ? findExecutable("setpriv", options.searchPath) : undefined;
  if (!bwrap && !options.unsafeNoSandbox) throw new SandboxUnavailableError("bubblewrap (bwrap) not found on PATH");
  if (bwrap && isRoot && !setpriv && !options.unsafeNoSandbox) {
    throw new SandboxUnavailableError("running as root needs setpriv (util-linux) to drop to an unprivileged user");
  }
  return {
    kind: bwrap ? "bwrap" : "unsafe",
    python: options.python,
    bwrap,
    setpriv,
    dropsToSlotUser: isRoot && setpriv !== undefined,
    existingProcesses: isRoot ? 0 : countProcessesOfUser(process.getuid?.() ?? -1),
    rootEntries: hostEntries(rootCandidates),
  };
}

/** Number of processes whose real uid is `uid` (Linux /proc). */
function countProcessesOfUser(uid: number): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      if (new RegExp(`^Uid:\\s+${uid}\\s`, "m").test(status)) count += 1;
    } catch {
      // The process ended while we looked.
    }
  }
  return count;
}
