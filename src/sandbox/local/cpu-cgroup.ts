/**
 * A CPU cap for one sandbox: a cgroup v1 `cpu` cgroup whose CFS quota allows `cpus` cores (quota = cpus × period),
 * created under rllm's own cgroup. Where none can be made (not root, cgroup v2 only), it says why and the cap is not
 * enforced.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The cgroup's `cgroup.procs` (each command's first process writes its pid there) and its removal. */
export type CpuCgroup = { procsFile: string; remove(): boolean } | { procsFile?: undefined; unavailable: string };

let counter = 0;

/** Creates a cgroup that caps its processes at `cpus` cores. */
export function createCpuCgroup(cpus: number): CpuCgroup {
  if (process.getuid?.() !== 0) return { unavailable: "not root" };
  const own = cpuHierarchy();
  if (own === undefined) return { unavailable: "no cgroup v1 cpu hierarchy" };
  const directory = path.join(own, `rllm-terminal-cpu-${process.pid}-${counter++}`);
  try {
    mkdirSync(directory);
    const period = Number(readFileSync(path.join(directory, "cpu.cfs_period_us"), "utf8").trim());
    writeFileSync(path.join(directory, "cpu.cfs_quota_us"), String(Math.max(1000, Math.round(cpus * period))));
  } catch (error) {
    return { unavailable: `cannot create ${directory}: ${(error as Error).message}` };
  }
  return {
    procsFile: path.join(directory, "cgroup.procs"),
    remove() {
      try {
        if (existsSync(directory)) rmdirSync(directory);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** This process's cgroup in the v1 hierarchy that has the cpu controller. */
function cpuHierarchy(): string | undefined {
  try {
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .map((line) => line.split(" - "))
      .find(([, right]) => right?.startsWith("cgroup ") && right.split(" ")[2]?.split(",").includes("cpu"));
    const line = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((entry) => entry.split(":")[1]?.split(",").includes("cpu"));
    if (!mount || !line) return undefined;
    return path.join(mount[0]!.split(" ")[4]!, line.split(":").slice(2).join(":"));
  } catch {
    return undefined;
  }
}
