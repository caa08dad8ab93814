/** Builds the command line that starts one sandbox slot: its cgroup join, bubblewrap (or, in unsafe mode, nothing) and the argv inside. */
import { existsSync } from "node:fs";
import path from "node:path";
import type { SandboxHost } from "./sandbox-host.js";
import type { SandboxLimits } from "../../core/sandbox-limits.js";
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

// Joins the cgroups named in $RLLM_CGROUP_PROCS (if any) before starting the sandbox, so every process in it is counted.
const joinCgroups = 'for file in $RLLM_CGROUP_PROCS; do echo $$ > "$file" || exit 97; done; exec "$@"';

/** The command that starts one sandbox slot. */
export function sandboxCommand(options: SandboxCommandOptions): SlotCommand {
  const { host } = options;
  if (host.kind === "unsafe" || !host.bwrap) {
    const argv = options.argv.map((argument) => hostPath(argument, options.mounts));
    const env = { ...programEnvironment, HOME: options.scratchDirectory ?? "/tmp", TMPDIR: options.scratchDirectory ?? "/tmp" };
    return { file: "/bin/sh", args: ["-c", joinCgroups, "rllm-sandbox", ...argv], env, cwd: options.scratchDirectory };
  }
  const inner = host.dropsToSlotUser
    ? [host.setpriv!, `--reuid=${options.slotUid}`, `--regid=${options.slotUid}`, "--clear-groups", "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all", "--", ...options.argv]
    : options.argv;
  return { file: "/bin/sh", args: ["-c", joinCgroups, "rllm-sandbox", host.bwrap, ...bwrapArgs(options), ...inner], env: { PATH: "/usr/bin:/bin" } };
}

function bwrapArgs(options: SandboxCommandOptions): string[] {
  const { host, limits } = options;
  const args = [
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(host.dropsToSlotUser ? [] : ["--unshare-user", "--uid", "65534", "--gid", "65534"]),
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    ...Object.entries(programEnvironment).flatMap(([name, value]) => ["--setenv", name, value]),
  ];
  // Only libraries, the interpreter and what the runner needs: no /usr/bin (no shell to start), no /etc, no /proc.
  const binds = [
    ...sharedLibraryDirectories.filter((directory) => existsSync(directory)),
    ...[host.python.prefix, ...host.python.sitePackages].filter((directory) => existsSync(directory)),
    host.python.executable,
    ...(host.dropsToSlotUser ? [host.setpriv!] : []),
  ];
  const mounts = [...uncovered(binds).map((source) => ({ source, destination: source })), ...options.mounts];
  const created = new Set<string>();
  for (const mount of mounts) {
    // bwrap copies the host's mode onto directories it creates (e.g. /root is 0700), so create parents world-readable.
    for (const parent of ancestors(mount.destination)) {
      if (created.has(parent)) continue;
      created.add(parent);
      args.push("--perms", "0755", "--dir", parent);
    }
    args.push("--ro-bind", mount.source, mount.destination);
  }
  for (const entry of host.rootEntries) {
    if (entry.symlinkTarget !== undefined) args.push("--symlink", entry.symlinkTarget, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  // /dev/null for programs that discard output; randomness comes from getrandom(2), which needs no device.
  args.push("--dev-bind", "/dev/null", "/dev/null");
  args.push("--perms", "1777", "--size", String(limits.scratchBytes), "--tmpfs", "/tmp");
  args.push("--remount-ro", "/", "--chdir", "/tmp");
  return args;
}

/** The paths of `paths` not inside another one of them (so nothing is mounted twice). */
function uncovered(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((candidate) => !unique.some((other) => other !== candidate && isInside(candidate, other)));
}

/** `/a/b/c` → [`/a`, `/a/b`]. */
function ancestors(target: string): string[] {
  const parts = target.split("/").filter((part) => part !== "");
  return parts.slice(0, -1).map((_, index) => "/" + parts.slice(0, index + 1).join("/"));
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Maps a sandbox path back to the host path it is mounted from (unsafe mode has no mounts). */
function hostPath(argument: string, mounts: Mount[]): string {
  for (const mount of mounts) {
    if (argument === mount.destination || argument.startsWith(mount.destination + "/")) return mount.source + argument.slice(mount.destination.length);
  }
  return argument;
}
