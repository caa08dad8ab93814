/**
 * The local provider's episode environment: a per-episode set of host folders (workdir, /tmp, /tests, /solution, /logs/{agent,verifier,
 * artifacts}) shown over the host's read-only system. The agent's commands run in one bubblewrap per episode (own pid,
 * ipc, uts and, unless allowed, net namespaces) inside the episode's cgroup, through a supervisor that starts each
 * command in its own process group: files and processes persist between commands (a background server, a tmux
 * session), and `killAll` / `close` end the pid namespace, so nothing outlives them. The verifier runs in a fresh
 * bubblewrap after the agent's is torn down, with /tests and /logs/verifier mounted: no agent process is alive to touch
 * the tests or write the reward file. Its /tmp (also its HOME) is a fresh empty folder, so nothing the agent planted
 * there (a `usercustomize.py` in the user site, a shell rc file) runs inside the grader.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bwrapShellArguments, hostEntries, type BwrapMount } from "./bwrap-command.js";
import { createSandboxCgroups } from "./sandbox-cgroup.js";
import { findExecutable } from "../find-executable.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";
import { collectOutput } from "./collect-output.js";
import { startSupervisor, type SupervisorConnection } from "./supervisor-connection.js";
import { supervisorProgram } from "./supervisor-program.js";
import { SandboxSpecSchema, type ExecOptions, type ExecResult, type SandboxEnvironment, type SandboxRole, type SandboxSpec } from "../../core/sandbox-environment.js";

/**
 * The unprivileged uid every command runs as, without capabilities. The verifier shares it: it can read and fix the
 * agent's files but, like the agent, nothing of the host that is not world-readable (test code may import the agent's
 * code, which must not reach /etc/shadow through the grader).
 */
export const sandboxUid = 1000;

// Sandbox path → folder under the episode's host root; the workdir is added per spec.
const fixedMounts: Record<string, string> = {
  "/tmp": "tmp",
  "/tests": "tests",
  "/solution": "solution",
  "/logs/agent": "logs/agent",
  "/logs/verifier": "logs/verifier",
  "/logs/artifacts": "logs/artifacts",
};
// Mounted only while the verifier runs: the agent never sees the tests, and cannot plant files there or write the reward.
const verifierOnly = new Set(["/tests", "/logs/verifier"]);
// The verifier's own /tmp and HOME, emptied before each verifier command: the agent's /tmp is its HOME too.
const verifierTmp = "verifier-tmp";
// Added to the verifier's environment: Python ignores the user site even if a task points HOME elsewhere.
const verifierVariables = { PYTHONNOUSERSITE: "1" };
const systemEntries = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];
const basePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Options of `createBwrapEnvironment` beyond the spec. */
export interface BwrapEnvironmentOptions {
  /** PATH searched for bwrap and setpriv (default the process's). */
  searchPath?: string;
}

/** Creates an episode's sandbox; throws SandboxUnavailableError when bubblewrap is missing. */
export function createBwrapEnvironment(given: Partial<SandboxSpec> = {}, options: BwrapEnvironmentOptions = {}): SandboxEnvironment {
  const spec = SandboxSpecSchema.parse(given);
  const bwrap = findExecutable("bwrap", options.searchPath);
  if (!bwrap) throw new SandboxUnavailableError("bubblewrap (bwrap) not found on PATH");
  const isRoot = process.getuid?.() === 0;
  const setpriv = isRoot ? findExecutable("setpriv", options.searchPath) : undefined;
  if (isRoot && !setpriv) throw new SandboxUnavailableError("running as root needs setpriv (util-linux) to drop to an unprivileged user");
  const root = mkdtempSync(path.join(tmpdir(), "rllm-terminal-"));
  const mounts: Record<string, string> = { [spec.workdir]: "work", ...fixedMounts };
  for (const folder of Object.values(mounts)) {
    mkdirSync(path.join(root, folder), { recursive: true });
    // Set after creation: mkdir's mode passes through the umask.
    chmodSync(path.join(root, folder), folder === "tmp" ? 0o1777 : 0o755);
    if (isRoot) chownSync(path.join(root, folder), sandboxUid, sandboxUid);
  }
  // The cap is on the agent's processes: bwrap's init and the supervisor (node: its main thread and three helper threads) come on top.
  const cgroups = createSandboxCgroups(1, { memoryBytes: spec.memoryMb * 1024 ** 2, processes: spec.processes + 8, ...(spec.cpus !== undefined ? { cpus: spec.cpus } : {}) });
  const cgroupProcs = (cgroups.slots?.[0]?.procsFiles ?? []).join(" ");
  const running = new Set<ChildProcess>();
  const bashPath = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
  let isClosed = false;

  const hostPathOf = (sandboxPath: string): string => {
    const normalized = path.posix.normalize(sandboxPath);
    const mount = Object.keys(mounts)
      .sort((left, right) => right.length - left.length)
      .find((destination) => normalized === destination || normalized.startsWith(`${destination}/`));
    if (mount === undefined) throw new Error(`sandbox path ${sandboxPath} is outside the sandbox's folders (${Object.keys(mounts).join(", ")})`);
    return path.join(root, mounts[mount]!, normalized.slice(mount.length));
  };

  // Inside the sandbox the supervisor runs on the host's node; one outside the mounted system is bound in read-only.
  const isNodeVisible = systemEntries.some((entry) => process.execPath.startsWith(`${entry}/`));
  const nodePath = isNodeVisible ? process.execPath : "/run/rllm/node";
  writeFileSync(path.join(root, "supervisor.js"), supervisorProgram, { mode: 0o644 });
  const commandVariables = (env: Record<string, string>) => ({ PATH: basePath, HOME: "/tmp", LANG: "C.UTF-8", TERM: "xterm", ...spec.env, ...env });

  // What the episode's sandbox shows: the host's system read-only, the supervisor (and node where the system lacks it),
  // /proc and /dev, and the episode's folders; /tests and /logs/verifier only to the verifier.
  const systemMounts = hostEntries(systemEntries);
  const mountsFor = (role: SandboxRole): BwrapMount[] => [
    ...systemMounts,
    ...(isNodeVisible ? [] : [{ kind: "ro-bind" as const, source: process.execPath, destination: nodePath }]),
    { kind: "ro-bind", source: path.join(root, "supervisor.js"), destination: "/run/rllm/supervisor.js" },
    { kind: "proc", destination: "/proc" },
    { kind: "dev", destination: "/dev" },
    ...Object.entries(mounts)
      // The tests and the reward file's folder exist only while the verifier runs.
      .filter(([destination]) => role === "verifier" || !verifierOnly.has(destination))
      .map(([destination, folder]): BwrapMount => ({
        // /tests is read-only to the verifier as well: code the tests run (the agent's) cannot rewrite them mid-run,
        // and bash reads a script as it runs it (issue #44). verify-terminal-task.ts makes the entry executable first.
        kind: destination === "/tests" ? "ro-bind" : "bind",
        source: path.join(root, role === "verifier" && destination === "/tmp" ? verifierTmp : folder),
        destination,
      })),
  ];

  /** `/bin/sh` arguments that join the episode's cgroups, then start bubblewrap (with `extra` options) running `inner` as the sandbox user. */
  const launch = (role: SandboxRole, variables: Record<string, string>, cwd: string, inner: string[], extra: string[] = []): string[] =>
    bwrapShellArguments({
      bwrap,
      ...(setpriv ? { setpriv } : {}),
      uid: sandboxUid,
      allowNetwork: spec.allowNetwork,
      hostname: "sandbox",
      variables,
      mounts: mountsFor(role),
      workingDirectory: cwd,
      extraOptions: extra,
      argv: inner,
    });
  const launchEnv = { PATH: basePath, RLLM_CGROUP_PROCS: cgroupProcs };
  // Without cgroups, per-process rlimits stand in: address space and processes of the (unprivileged) user.
  const ulimits = cgroups.slots ? "" : `ulimit -v ${spec.memoryMb * 1024} 2>/dev/null; ulimit -u ${spec.processes} 2>/dev/null; `;

  let supervisor: SupervisorConnection | undefined;
  const describeDeath = () => {
    const oomKills = cgroups.slots?.[0]?.oomKills() ?? 0;
    return oomKills > 0 ? `; the episode's memory cap (${spec.memoryMb} MiB) killed ${oomKills} process(es)` : "";
  };
  const startAgentSandbox = (): SupervisorConnection => {
    // One libuv and one V8 worker thread: threads count against the episode's process cap.
    const inner = [nodePath, "--v8-pool-size=1", "/run/rllm/supervisor.js"];
    // --info-fd 3: bwrap names the namespace's init, the process whose death ends the sandbox.
    const args = launch("agent", { PATH: basePath, HOME: "/tmp", UV_THREADPOOL_SIZE: "1" }, spec.workdir, inner, ["--info-fd", "3"]);
    return startSupervisor("/bin/sh", args, launchEnv, describeDeath);
  };
  const stopAgentSandbox = async () => {
    const stopping = supervisor;
    if (stopping?.deathReason() === undefined) supervisor = undefined;
    await stopping?.stop();
  };

  const execAsAgent = (command: string, options: ExecOptions): Promise<ExecResult> => {
    supervisor ??= startAgentSandbox();
    return supervisor.exec(
      {
        command: ulimits ? `${ulimits}exec ${bashPath} -c ${shellQuote(command)}` : command,
        shell: bashPath,
        env: commandVariables(options.env ?? {}),
        cwd: options.cwd ?? spec.workdir,
        timeoutMs: options.timeoutMs ?? spec.commandTimeoutMs,
        outputBytes: spec.outputBytes,
      },
      options.signal,
    );
  };

  // The verifier's own bubblewrap, after the agent's is gone: one command, killed with its process group at its timeout.
  const execAsVerifier = async (command: string, options: ExecOptions): Promise<ExecResult> => {
    await stopAgentSandbox();
    const timeoutMs = options.timeoutMs ?? spec.commandTimeoutMs;
    const started = performance.now();
    const inner = [bashPath, "-c", `${ulimits}exec ${bashPath} -c "$0"`, command];
    const freshTmp = path.join(root, verifierTmp);
    rmSync(freshTmp, { recursive: true, force: true });
    mkdirSync(freshTmp);
    chmodSync(freshTmp, 0o1777);
    if (isRoot) chownSync(freshTmp, sandboxUid, sandboxUid);
    const variables = { ...commandVariables(options.env ?? {}), ...verifierVariables };
    const child = spawn("/bin/sh", launch("verifier", variables, options.cwd ?? spec.workdir, inner), {
      env: launchEnv,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so a timeout kills bubblewrap and, with it, the command's pid namespace.
      detached: true,
    });
    running.add(child);
    const stdout = collectOutput(child.stdout!, spec.outputBytes);
    const stderr = collectOutput(child.stderr!, spec.outputBytes);
    let timedOut = false;
    const kill = () => killGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    options.signal?.addEventListener("abort", kill, { once: true });
    return new Promise((resolve, reject) => {
      child.on("error", (error) => {
        clearTimeout(timer);
        running.delete(child);
        reject(error);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", kill);
        running.delete(child);
        resolve({
          exitCode: code,
          stdout: stdout.text(),
          stderr: stderr.text(),
          timedOut,
          truncated: stdout.truncated || stderr.truncated,
          durationMs: performance.now() - started,
        });
      });
    });
  };

  const exec = (command: string, options: ExecOptions = {}): Promise<ExecResult> => {
    if (isClosed) return Promise.reject(new Error("the sandbox is closed"));
    return (options.role ?? "agent") === "verifier" ? execAsVerifier(command, options) : execAsAgent(command, options);
  };

  const killAll = async () => {
    const waits = [...running].map((child) => new Promise<void>((resolve) => child.once("close", () => resolve())));
    for (const child of running) killGroup(child);
    await Promise.all([...waits, stopAgentSandbox()]);
  };

  return {
    provider: "local",
    spec,
    exec,
    async upload(hostPath, sandboxPath) {
      const target = hostPathOf(sandboxPath);
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(hostPath, target, { recursive: true });
      if (isRoot) chownTree(target, sandboxUid);
    },
    async download(sandboxPath, hostPath) {
      cpSync(hostPathOf(sandboxPath), hostPath, { recursive: true });
    },
    async readText(sandboxPath) {
      const file = hostPathOf(sandboxPath);
      return existsSync(file) && lstatSync(file).isFile() ? readFileSync(file, "utf8") : undefined;
    },
    killAll,
    isAlive: () => !isClosed && supervisor?.deathReason() === undefined,
    async close() {
      if (isClosed) return;
      isClosed = true;
      await killAll();
      if (cgroups.slots) {
        // A killed process leaves its cgroup a moment later.
        for (let attempt = 0; attempt < 50 && !cgroups.remove(); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** `text` as one single-quoted shell word. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

function chownTree(target: string, uid: number): void {
  chownSync(target, uid, uid);
  if (!lstatSync(target).isDirectory()) return;
  for (const entry of readdirSync(target)) chownTree(path.join(target, entry), uid);
}
