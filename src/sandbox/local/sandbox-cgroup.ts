/**
 * Per-sandbox cgroups, for a program slot and an episode's environment alike: a memory cap, a process cap and, when
 * asked, a CPU cap on each sandbox as a whole (cgroup v2 memory.max, pids.max and cpu.max where the unified hierarchy
 * has those controllers, else cgroup v1 memory.limit_in_bytes, pids.max and cpu.cfs_quota_us), created under our own
 * cgroup. When none can be written (not root, no delegation), `createSandboxCgroups` says why and the sandboxes fall
 * back to per-process rlimits; a CPU cap no controller can hold is left out, and the policy says so.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The cgroup directories of one sandbox: its first process writes its pid into each `procsFiles` entry. */
export interface SlotCgroup {
  procsFiles: string[];
  /** How many processes the kernel has OOM-killed in this cgroup so far. */
  oomKills(): number;
}

/** Sandbox cgroups and the policy in words, or why there are none. */
export type SlotCgroups = { slots: SlotCgroup[]; policy: string; remove(): boolean } | { slots?: undefined; unavailable: string };

/** The caps of each sandbox. */
export interface SandboxCaps {
  memoryBytes: number;
  /** Processes and threads. */
  processes: number;
  /** Cores' worth of CPU time (0.5: half a core); absent: no CPU cap. */
  cpus?: number;
}

interface Hierarchy {
  version: 1 | 2;
  /** Directory of our own cgroup in each controller's hierarchy (cpu: undefined where no hierarchy offers it). */
  memory: string;
  pids: string;
  cpu: string | undefined;
}

// Every sandbox's cgroups are named after the process that made them, so that a later one can tell leftovers.
const namePrefix = "rllm-sandbox-";

/** Creates `count` sandbox cgroups with `caps` each. */
export function createSandboxCgroups(count: number, caps: SandboxCaps): SlotCgroups {
  const hierarchy = findHierarchy();
  if (typeof hierarchy === "string") return { unavailable: hierarchy };
  // Several sandboxes may start within one millisecond (the episodes of a run): the random part keeps their names apart.
  const name = `${namePrefix}${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let cpu = caps.cpus === undefined ? undefined : hierarchy.cpu;
  const roots = [...new Set([hierarchy.memory, hierarchy.pids])];
  let cpuUnavailable = hierarchy.version === 2 ? "the unified hierarchy does not offer the cpu controller here" : "no cgroup v1 cpu hierarchy";
  try {
    removeStale(roots);
    for (const root of roots) mkdirSync(path.join(root, name));
    if (hierarchy.version === 2) writeFileSync(path.join(hierarchy.memory, name, "cgroup.subtree_control"), "+memory +pids");
    // The CPU cap is the one a host may refuse while it grants the others: then the sandbox runs without it.
    if (cpu !== undefined) {
      try {
        if (hierarchy.version === 2) writeFileSync(path.join(hierarchy.memory, name, "cgroup.subtree_control"), "+cpu");
        else if (!roots.includes(cpu)) {
          removeStale([cpu]);
          mkdirSync(path.join(cpu, name));
          roots.push(cpu);
        }
      } catch (error) {
        cpuUnavailable = `cannot enable the cpu controller: ${(error as Error).message}`;
        cpu = undefined;
      }
    }
    const slots = Array.from({ length: count }, (_, slot) => createSlot(hierarchy, cpu, path.join(name, `slot-${slot}`), caps));
    const cpuPolicy = caps.cpus === undefined ? "" : cpu ? ` and ${caps.cpus} CPUs` : `; no CPU cap (${cpuUnavailable})`;
    const policy =
      `cgroup v${hierarchy.version}: each sandbox capped at ${Math.round(caps.memoryBytes / 1024 ** 2)} MiB of memory (no swap) ` +
      `and ${caps.processes} processes/threads${cpuPolicy}`;
    return { slots, policy, remove: () => removeTree(roots.map((root) => path.join(root, name))) };
  } catch (error) {
    removeTree(roots.map((root) => path.join(root, name)));
    return { unavailable: `cannot create cgroups under ${roots.join(" and ")}: ${(error as Error).message}` };
  }
}

function createSlot(hierarchy: Hierarchy, cpuRoot: string | undefined, relative: string, caps: SandboxCaps): SlotCgroup {
  const memory = path.join(hierarchy.memory, relative);
  const pids = path.join(hierarchy.pids, relative);
  const cpu = cpuRoot === undefined ? undefined : path.join(cpuRoot, relative);
  for (const directory of new Set([memory, pids, ...(cpu ? [cpu] : [])])) mkdirSync(directory);
  if (hierarchy.version === 2) {
    writeFileSync(path.join(memory, "memory.max"), String(caps.memoryBytes));
    if (existsSync(path.join(memory, "memory.swap.max"))) writeFileSync(path.join(memory, "memory.swap.max"), "0");
  } else {
    writeFileSync(path.join(memory, "memory.limit_in_bytes"), String(caps.memoryBytes));
    // Memory plus swap: written after the memory limit, which it may not undercut.
    if (existsSync(path.join(memory, "memory.memsw.limit_in_bytes"))) writeFileSync(path.join(memory, "memory.memsw.limit_in_bytes"), String(caps.memoryBytes));
  }
  writeFileSync(path.join(pids, "pids.max"), String(caps.processes));
  if (cpu !== undefined && caps.cpus !== undefined) writeCpuCap(hierarchy.version, cpu, caps.cpus);
  const eventsFile = hierarchy.version === 2 ? path.join(memory, "memory.events") : path.join(memory, "memory.oom_control");
  return {
    procsFiles: [...new Set([path.join(memory, "cgroup.procs"), path.join(pids, "cgroup.procs"), ...(cpu ? [path.join(cpu, "cgroup.procs")] : [])])],
    oomKills: () => Number(/^oom_kill (\d+)/m.exec(readFileSync(eventsFile, "utf8"))?.[1] ?? 0),
  };
}

/** A CFS quota of `cpus` cores' worth of time per period (at least 1 ms). */
function writeCpuCap(version: 1 | 2, directory: string, cpus: number): void {
  if (version === 2) {
    const period = Number(readFileSync(path.join(directory, "cpu.max"), "utf8").trim().split(/\s+/)[1] ?? 100_000);
    writeFileSync(path.join(directory, "cpu.max"), `${Math.max(1000, Math.round(cpus * period))} ${period}`);
    return;
  }
  const period = Number(readFileSync(path.join(directory, "cpu.cfs_period_us"), "utf8").trim());
  writeFileSync(path.join(directory, "cpu.cfs_quota_us"), String(Math.max(1000, Math.round(cpus * period))));
}

/** The writable hierarchy with memory and pids controllers (and cpu where it has one), or why there is none. */
function findHierarchy(): Hierarchy | string {
  if (process.getuid?.() !== 0) return "we do not run as root, so we cannot create cgroups";
  let mounts: string[];
  let membership: string[];
  try {
    mounts = readFileSync("/proc/self/mountinfo", "utf8").split("\n");
    membership = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  } catch (error) {
    return `cannot read /proc/self: ${(error as Error).message}`;
  }
  // mountinfo: "id parent major:minor root mountpoint options - fstype source superoptions".
  const mounted = mounts.flatMap((line) => {
    const [left, right] = line.split(" - ");
    if (!left || !right) return [];
    const [fstype, , superOptions = ""] = right.split(" ");
    return [{ point: left.split(" ")[4]!, fstype: fstype!, options: superOptions.split(",") }];
  });
  const unified = mounted.find((mount) => mount.fstype === "cgroup2");
  const unifiedPath = membership.find((line) => line.startsWith("0::"))?.slice(3);
  if (unified && unifiedPath !== undefined) {
    const own = path.join(unified.point, unifiedPath);
    const controllers = readOptional(path.join(own, "cgroup.controllers")).split(/\s+/);
    if (controllers.includes("memory") && controllers.includes("pids")) return { version: 2, memory: own, pids: own, cpu: controllers.includes("cpu") ? own : undefined };
  }
  const v1 = (controller: string): string | undefined => {
    const mount = mounted.find((entry) => entry.fstype === "cgroup" && entry.options.includes(controller));
    const line = membership.find((entry) => entry.split(":")[1]?.split(",").includes(controller));
    return mount && line ? path.join(mount.point, line.split(":").slice(2).join(":")) : undefined;
  };
  const memory = v1("memory");
  const pids = v1("pids");
  if (memory && pids) return { version: 1, memory, pids, cpu: v1("cpu") };
  return "no cgroup hierarchy with the memory and pids controllers (cgroup v2 controllers or v1 mounts)";
}

function readOptional(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Removes cgroups that earlier sandboxes left behind (their process is gone). */
function removeStale(roots: string[]): void {
  for (const root of roots) {
    for (const entry of readdirSync(root)) {
      const pid = new RegExp(`^${namePrefix}(\\d+)-`).exec(entry)?.[1];
      if (pid === undefined || isAlive(Number(pid))) continue;
      removeTree([path.join(root, entry)]);
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** rmdir of each cgroup and its children (a cgroup directory cannot be removed recursively in one call); true when all are gone. */
function removeTree(directories: string[]): boolean {
  let isRemoved = true;
  for (const directory of directories) {
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) isRemoved = removeTree([path.join(directory, entry.name)]) && isRemoved;
    }
    try {
      rmdirSync(directory);
    } catch {
      // Still has a process (a sandbox being killed): the caller retries, or the next one's removeStale takes it.
      isRemoved = false;
    }
  }
  return isRemoved;
}
