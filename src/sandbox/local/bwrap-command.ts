/**
 * The one command line that starts a local sandbox, for a program slot and an episode's environment alike: `/bin/sh`
 * joins the sandbox's cgroups (named in $RLLM_CGROUP_PROCS, so every process of it is counted from the start), then
 * execs bubblewrap with new ipc, pid, uts and cgroup namespaces (and net, unless the sandbox may reach the network), an
 * empty environment but the given variables, a new session and `--die-with-parent`, the mounts in the order given over
 * a read-only root, and the command inside as an unprivileged uid: setpriv drops to it without capabilities when we
 * are root, a user namespace maps us to it otherwise.
 */
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

/** One view of the sandbox's file system, in order (a later one lies over an earlier one). */
export type BwrapMount =
  | { kind: "ro-bind" | "bind" | "dev-bind"; source: string; destination: string }
  | { kind: "symlink"; target: string; destination: string }
  | { kind: "tmpfs"; destination: string; mode: string; sizeBytes?: number }
  | { kind: "proc" | "dev"; destination: string };

/** Everything a sandbox's start needs. */
export interface BwrapLaunch {
  bwrap: string;
  /** Set when we are root: the command drops to `uid` through it. */
  setpriv?: string;
  /** The unprivileged uid (and gid) the command runs as. */
  uid: number;
  allowNetwork: boolean;
  hostname?: string;
  variables: Record<string, string>;
  mounts: readonly BwrapMount[];
  workingDirectory: string;
  /** bwrap options before the rest (`--info-fd 3`). */
  extraOptions?: readonly string[];
  argv: readonly string[];
}

/** Joins the cgroups named in $RLLM_CGROUP_PROCS (if any), then execs its arguments: exit 97 when one cannot be joined. */
export const joinCgroups = 'for file in $RLLM_CGROUP_PROCS; do echo $$ > "$file" || exit 97; done; exec "$@"';

/** `/bin/sh`'s arguments that join the cgroups and start bubblewrap running `launch.argv` as the unprivileged uid. */
export function bwrapShellArguments(launch: BwrapLaunch): string[] {
  const inner = launch.setpriv
    ? [launch.setpriv, `--reuid=${launch.uid}`, `--regid=${launch.uid}`, "--clear-groups", "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all", "--", ...launch.argv]
    : [...launch.argv];
  return ["-c", joinCgroups, "rllm-sandbox", launch.bwrap, ...(launch.extraOptions ?? []), ...bwrapOptions(launch), ...inner];
}

function bwrapOptions(launch: BwrapLaunch): string[] {
  const options = ["--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"];
  if (launch.hostname !== undefined) options.push("--hostname", launch.hostname);
  if (!launch.allowNetwork) options.push("--unshare-net");
  if (!launch.setpriv) options.push("--unshare-user", "--uid", String(launch.uid), "--gid", String(launch.uid));
  options.push("--die-with-parent", "--new-session", "--clearenv");
  for (const [name, value] of Object.entries(launch.variables)) options.push("--setenv", name, value);
  const created = new Set<string>();
  for (const mount of launch.mounts) {
    if (mount.kind === "ro-bind" || mount.kind === "bind") {
      // bwrap gives the folders it creates the host folder's mode (/root is 0700), so parents are made world-readable.
      for (const parent of ancestors(mount.destination)) {
        if (created.has(parent)) continue;
        created.add(parent);
        options.push("--perms", "0755", "--dir", parent);
      }
    }
    options.push(...mountOptions(mount));
  }
  options.push("--remount-ro", "/", "--chdir", launch.workingDirectory);
  return options;
}

function mountOptions(mount: BwrapMount): string[] {
  switch (mount.kind) {
    case "ro-bind":
    case "bind":
    case "dev-bind":
      return [`--${mount.kind}`, mount.source, mount.destination];
    case "symlink":
      return ["--symlink", mount.target, mount.destination];
    case "tmpfs":
      return ["--perms", mount.mode, ...(mount.sizeBytes !== undefined ? ["--size", String(mount.sizeBytes)] : []), "--tmpfs", mount.destination];
    case "proc":
    case "dev":
      return [`--${mount.kind}`, mount.destination];
  }
}

/**
 * The host's top-level `paths` as the sandbox reproduces them, read-only: a symlink stays a symlink (usrmerge's
 * /bin -> usr/bin), a folder is bound; a path the host lacks is left out.
 */
export function hostEntries(paths: readonly string[]): BwrapMount[] {
  return paths.flatMap((entry): BwrapMount[] => {
    if (!existsSync(entry)) return [];
    const stat = lstatSync(entry);
    if (stat.isSymbolicLink()) return [{ kind: "symlink", target: readlinkSync(entry), destination: entry }];
    return stat.isDirectory() ? [{ kind: "ro-bind", source: entry, destination: entry }] : [];
  });
}

/** `/a/b/c` → [`/a`, `/a/b`]. */
export function ancestors(target: string): string[] {
  const parts = target.split("/").filter((part) => part !== "");
  return parts.slice(0, -1).map((_, index) => `/${parts.slice(0, index + 1).join("/")}`);
}

/** Whether `child` is `parent` or lies under it. */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
