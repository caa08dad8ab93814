/**
 * The command line that starts one program slot: bubblewrap (bwrap-command.ts) with only the shared libraries, the
 * interpreter's installation and the runner's files read-only, `/dev/null`, and a private size-capped `/tmp`; or, in
 * unsafe mode (no bubblewrap, --unsafe-no-sandbox), the runner on the host in a scratch folder.
 */
import { existsSync } from "node:fs";
import type { SandboxLimits } from "../../core/sandbox-limits.js";
import { bwrapShellArguments, isInside, joinCgroups, type BwrapMount } from "./bwrap-command.js";
import type { SandboxHost } from "./sandbox-host.js";
import type { SlotCommand } from "./sandbox-slot.js";

/** A host path made visible read-only inside the sandbox. */
export interface Mount {
  source: string;
  destination: string;
}

export interface SandboxCommandOptions {
  host: SandboxHost;
  limits: SandboxLimits;
  /** The unprivileged uid/gid this run uses when the host drops to slot users. */
  slotUid: number;
  mounts: Mount[];
  /** Command inside the sandbox; paths refer to mount destinations. */
  argv: string[];
  /** Unsafe mode only: the slot's scratch directory (working directory of every run, emptied after each). */
  scratchDirectory?: string;
}

// The only environment a program sees: no variable of the caller (API keys) is passed through.
const programEnvironment: Record<string, string> = {
  PATH: "/usr/bin:/bin",
  HOME: "/tmp",
  TMPDIR: "/tmp",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  OMP_NUM_THREADS: "1",
  OPENBLAS_NUM_THREADS: "1",
  MKL_NUM_THREADS: "1",
};

// Shared libraries the interpreter links against (usrmerge layout; /lib and friends are symlinks or binds from rootEntries).
const sharedLibraryDirectories = ["/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libx32"];
// Without slot users, bubblewrap maps us to nobody.
const nobody = 65534;

/** The command that starts one sandbox slot. */
export function sandboxCommand(options: SandboxCommandOptions): SlotCommand {
  const { host } = options;
  if (host.kind === "unsafe" || !host.bwrap) {
    const argv = options.argv.map((argument) => hostPath(argument, options.mounts));
    const env = { ...programEnvironment, HOME: options.scratchDirectory ?? "/tmp", TMPDIR: options.scratchDirectory ?? "/tmp" };
    return { file: "/bin/sh", args: ["-c", joinCgroups, "rllm-sandbox", ...argv], env, cwd: options.scratchDirectory };
  }
  // Only libraries, the interpreter and what the runner needs: no /usr/bin (no shell to start), no /etc, no /proc.
  const binds = [
    ...sharedLibraryDirectories.filter((directory) => existsSync(directory)),
    ...[host.python.prefix, ...host.python.sitePackages].filter((directory) => existsSync(directory)),
    host.python.executable,
    ...(host.dropsToSlotUser ? [host.setpriv!] : []),
  ];
  const mounts: BwrapMount[] = [
    ...uncovered(binds).map((source): BwrapMount => ({ kind: "ro-bind", source, destination: source })),
    ...options.mounts.map((mount): BwrapMount => ({ kind: "ro-bind", ...mount })),
    ...host.rootEntries,
    // /dev/null for programs that discard output; randomness comes from getrandom(2), which needs no device.
    { kind: "dev-bind", source: "/dev/null", destination: "/dev/null" },
    { kind: "tmpfs", destination: "/tmp", mode: "1777", sizeBytes: options.limits.scratchBytes },
  ];
  const args = bwrapShellArguments({
    bwrap: host.bwrap,
    ...(host.dropsToSlotUser ? { setpriv: host.setpriv! } : {}),
    uid: host.dropsToSlotUser ? options.slotUid : nobody,
    allowNetwork: false,
    variables: programEnvironment,
    mounts,
    workingDirectory: "/tmp",
    argv: options.argv,
  });
  return { file: "/bin/sh", args, env: { PATH: "/usr/bin:/bin" } };
}

/** The paths of `paths` not inside another one of them (so nothing is mounted twice). */
function uncovered(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((candidate) => !unique.some((other) => other !== candidate && isInside(candidate, other)));
}

/** Maps a sandbox path back to the host path it is mounted from (unsafe mode has no mounts). */
function hostPath(argument: string, mounts: Mount[]): string {
  for (const mount of mounts) {
    if (argument === mount.destination || argument.startsWith(mount.destination + "/")) return mount.source + argument.slice(mount.destination.length);
  }
  return argument;
}
