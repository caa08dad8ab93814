/**
 * Per-sandbox cgroups: a memory cap and a process cap on each slot's whole sandbox (cgroup v2 memory.max and pids.max
 * where the unified hierarchy has those controllers, else cgroup v1 memory.limit_in_bytes and pids.max), created under
 * the grader's own cgroup. When none can be written (not root, no delegation), `createSlotCgroups` says why and the
 * sandboxes fall back to per-process rlimits.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The cgroup directories of one slot: the sandbox's first process writes its pid into each `procsFiles` entry. */
export interface SlotCgroup {
  procsFiles: string[];
  /** How many processes the kernel has OOM-killed in this cgroup so far. */
  oomKills(): number;
}

/** Slot cgroups and the policy in words, or why there are none. */
export type SlotCgroups = { slots: SlotCgroup[]; policy: string; remove(): boolean } | { slots?: undefined; unavailable: string };

interface Hierarchy {
  version: 1 | 2;
  /** Directory of the grader's own cgroup in each controller's hierarchy. */
  memory: string;
  pids: string;
}

/** Creates `count` slot cgroups capping memory at `memoryBytes` and processes/threads at `processes` each. */
export function createSlotCgroups(count: number, memoryBytes: number, processes: number): SlotCgroups {
  const hierarchy = findHierarchy();
  if (typeof hierarchy === "string") return { unavailable: hierarchy };
  const name = `rllm-code-${process.pid}-${Date.now().toString(36)}`;
  const roots = [...new Set([hierarchy.memory, hierarchy.pids])];
  try {
    removeStale(roots);
    for (const root of roots) mkdirSync(path.join(root, name));
    if (hierarchy.version === 2) writeFileSync(path.join(hierarchy.memory, name, "cgroup.subtree_control"), "+memory +pids");
    const slots = Array.from({ length: count }, (_, slot) => createSlot(hierarchy, path.join(name, `slot-${slot}`), memoryBytes, processes));
    const policy =
      `cgroup v${hierarchy.version}: each sandbox capped at ${Math.round(memoryBytes / 1024 ** 2)} MiB of memory (no swap) ` +
      `and ${processes} processes/threads`;
    return { slots, policy, remove: () => removeTree(roots.map((root) => path.join(root, name))) };
  } catch (error) {
    removeTree(roots.map((root) => path.join(root, name)));
    return { unavailable: `cannot create cgroups under ${roots.join(" and ")}: ${(error as Error).message}` };
  }
}

function createSlot(hierarchy: Hierarchy, relative: string, memoryBytes: number, processes: number): SlotCgroup {
  const memory = path.join(hierarchy.memory, relative);
  const pids = path.join(hierarchy.pids, relative);
  for (const directory of new Set([memory, pids])) mkdirSync(directory);
  if (hierarchy.version === 2) {
    writeFileSync(path.join(memory, "memory.max"), String(memoryBytes));
    if (existsSync(path.join(memory, "memory.swap.max"))) writeFileSync(path.join(memory, "memory.swap.max"), "0");
  } else {
    writeFileSync(path.join(memory, "memory.limit_in_bytes"), String(memoryBytes));
    // Memory plus swap: written after the memory limit, which it may not undercut.
    if (existsSync(path.join(memory, "memory.memsw.limit_in_bytes"))) writeFileSync(path.join(memory, "memory.memsw.limit_in_bytes"), String(memoryBytes));
  }
  writeFileSync(path.join(pids, "pids.max"), String(processes));
  const eventsFile = hierarchy.version === 2 ? path.join(memory, "memory.events") : path.join(memory, "memory.oom_control");
  return {
    procsFiles: [...new Set([path.join(memory, "cgroup.procs"), path.join(pids, "cgroup.procs")])],
    oomKills: () => Number(/^oom_kill (\d+)/m.exec(readFileSync(eventsFile, "utf8"))?.[1] ?? 0),
  };
}

/** The writable hierarchy with memory and pids controllers, or why there is none. */
function findHierarchy(): Hierarchy | string {
  if (process.getuid?.() !== 0) return "the grader does not run as root, so it cannot create cgroups";
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
    if (controllers.includes("memory") && controllers.includes("pids")) return { version: 2, memory: own, pids: own };
  }
  const v1 = (controller: string): string | undefined => {
    const mount = mounted.find((entry) => entry.fstype === "cgroup" && entry.options.includes(controller));
    const line = membership.find((entry) => entry.split(":")[1]?.split(",").includes(controller));
    return mount && line ? path.join(mount.point, line.split(":").slice(2).join(":")) : undefined;
  };
  const memory = v1("memory");
  const pids = v1("pids");
  if (memory && pids) return { version: 1, memory, pids };
  return "no cgroup hierarchy with the memory and pids controllers (cgroup v2 controllers or v1 mounts)";
}

function readOptional(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Removes cgroups that earlier graders left behind (their process is gone). */
function removeStale(roots: string[]): void {
  for (const root of roots) {
    for (const entry of readdirSync(root)) {
      const pid = /^rllm-code-(\d+)-/.exec(entry)?.[1];
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
      // Still has a process (a sandbox being killed): the caller retries, or the next grader's removeStale takes it.
      isRemoved = false;
    }
  }
  return isRemoved;
}
