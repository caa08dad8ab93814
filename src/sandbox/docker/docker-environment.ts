/**
 * The docker provider's episode environment, through the docker CLI: one container per episode (`sleep infinity` under docker-init)
 * from the task's image or its built Dockerfile. Each command is a `docker exec` tagged by an environment variable;
 * past its time limit every process with the tag is killed. Processes a command leaves in the background live on
 * until `killAll`, which restarts the container (every process dies, the files stay). The agent runs as the image's
 * user, the verifier as root; `/tests` and `/logs/verifier` are root-only and are emptied, after every agent process
 * is killed, when verification begins, so nothing the agent planted there is graded. `close` is `docker rm -f`.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import { findExecutable } from "../find-executable.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";
import { collectOutput } from "../local/collect-output.js";
import { killTaggedScript } from "./kill-tagged-script.js";
import { dockerOutput, runDocker } from "./run-docker.js";
import { startContainer, verifierFolders, type StartedContainer } from "./start-container.js";
import type { ImageBuilds } from "./task-image.js";
import { SandboxSpecSchema, type ExecOptions, type ExecResult, type SandboxEnvironment, type SandboxSpec } from "../../core/sandbox-environment.js";

// The verifier's own HOME and TMPDIR, root-only and emptied when verification starts: the agent's home (a planted
// usercustomize.py, shell rc files) and /tmp are not the grader's. Python ignores the user site in any case.
const verifierHome = "/run/rllm-verifier";
const verifierVariables = { HOME: verifierHome, TMPDIR: verifierHome, PYTHONNOUSERSITE: "1" };
// Set in every command's environment; /proc/<pid>/environ keeps it, so the command's processes can be found and killed.
const commandTagVariable = "RLLM_SANDBOX_COMMAND";
// After the kill, how long the command may take to end before the container is restarted.
const stopGraceMs = 3000;

/** Options of `createDockerEnvironment` beyond the spec. */
export interface DockerEnvironmentOptions {
  /** The run's image builds, shared by its episodes (default: this environment's own). */
  builds?: ImageBuilds;
}

/** Creates an episode's container (started in the background; the first call waits for it). */
export function createDockerEnvironment(given: Partial<SandboxSpec> = {}, options: DockerEnvironmentOptions = {}): SandboxEnvironment {
  const spec = SandboxSpecSchema.parse(given);
  const docker = findExecutable("docker");
  if (!docker) throw new SandboxUnavailableError("docker not found on PATH", "Install Docker and start its daemon, or use --sandbox local");
  const name = `rllm-terminal-${randomUUID().slice(0, 12)}`;
  liveContainers.add(name);
  removeLeftoversAtExit(docker);
  const ready = startContainer(docker, name, spec, options.builds ?? new Map());
  ready.catch(() => {}); // reported by the first call that awaits it
  const running = new Set<Promise<unknown>>();
  let isClosed = false;
  // An agent command ran since the last restart: verification must kill first.
  let hasAgentRun = false;
  let verification: Promise<void> | undefined;

  const container = async (): Promise<StartedContainer> => {
    if (isClosed) throw new Error(`the sandbox ${name} is closed`);
    return ready;
  };
  const run = async (args: string[], timeoutMs?: number): Promise<string> => dockerOutput(args, await runDocker(docker, args, timeoutMs));
  const asRoot = (script: string, ...parameters: string[]) => run(["exec", "-u", "0", name, "sh", "-c", script, "rllm", ...parameters]);

  const killAll = async (): Promise<void> => {
    await container();
    // A restart kills every process in the container (a fork bomb included, which no exec could reach) and keeps its files.
    await run(["restart", "-t", "0", name]);
    hasAgentRun = false;
    await Promise.allSettled(running);
  };

  // Once, before the first verifier step: no agent process left, and nothing the agent put in the verifier's folders.
  const enterVerification = (): Promise<void> => {
    verification ??= (async () => {
      if (hasAgentRun) await killAll();
      const folders = [...verifierFolders, verifierHome].join(" ");
      await asRoot(`rm -rf ${folders} && mkdir -p ${folders} && chmod 700 ${folders}`);
    })();
    return verification;
  };
  const isVerifierPath = (sandboxPath: string) => {
    const normalized = path.posix.normalize(sandboxPath);
    return verifierFolders.some((folder) => normalized === folder || normalized.startsWith(`${folder}/`));
  };

  const exec = async (command: string, options: ExecOptions = {}): Promise<ExecResult> => {
    const started = await container();
    const isVerifier = options.role === "verifier";
    if (isVerifier) await enterVerification();
    else hasAgentRun = true;
    const timeoutMs = options.timeoutMs ?? spec.commandTimeoutMs;
    const tag = randomUUID();
    const user = isVerifier ? ["-u", "0"] : [];
    const variables = { ...spec.env, ...options.env, ...(isVerifier ? verifierVariables : {}), [commandTagVariable]: tag };
    const env = Object.entries(variables).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
    const begin = performance.now();
    const child = spawn(docker, ["exec", ...user, ...env, "-w", options.cwd ?? spec.workdir, name, started.shell, "-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    const stdout = collectOutput(child.stdout, spec.outputBytes);
    const stderr = collectOutput(child.stderr, spec.outputBytes);
    const done = new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });
    let timedOut = false;
    // Every process carrying the command's tag dies (its background children and daemons too); when that cannot run
    // (a fork bomb leaves no process to spare) or the command still has not ended, a restart kills everything.
    const stop = async () => {
      const killed = await runDocker(docker, ["exec", ...user, name, "sh", "-c", killTaggedScript, "rllm", `${commandTagVariable}=${tag}`], 10_000);
      if (killed.status === 0 && (await endsWithin(done, stopGraceMs))) return;
      await runDocker(docker, ["restart", "-t", "0", name]);
    };
    let stopping: Promise<void> | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      stopping ??= stop();
    }, timeoutMs);
    const abort = () => {
      stopping ??= stop();
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener("abort", abort, { once: true });
    const finished = done
      .then(async (code) => {
        await stopping;
        return { exitCode: code, stdout: stdout.text(), stderr: stderr.text(), timedOut, truncated: stdout.truncated || stderr.truncated, durationMs: performance.now() - begin };
      })
      .finally(() => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", abort);
        running.delete(finished);
      });
    running.add(finished);
    return finished;
  };

  return {
    provider: "docker",
    spec,
    exec,
    async upload(hostPath, sandboxPath) {
      const started = await container();
      const isVerifierTarget = isVerifierPath(sandboxPath);
      if (isVerifierTarget) await enterVerification();
      const isFolder = statSync(hostPath).isDirectory();
      await asRoot('mkdir -p "$1"', isFolder ? sandboxPath : path.posix.dirname(sandboxPath));
      // "folder/." copies a folder's contents into the existing target, as the local (bubblewrap) environment does.
      await run(["cp", isFolder ? `${hostPath}/.` : hostPath, `${name}:${sandboxPath}`]);
      // docker cp makes root the owner; the agent's files go to the agent's user.
      if (!isVerifierTarget && !started.isAgentRoot) await asRoot('chown -R "$1" "$2"', started.agentOwner, sandboxPath);
    },
    async download(sandboxPath, hostPath) {
      await container();
      await run(["cp", `${name}:${sandboxPath}`, hostPath]);
    },
    async readText(sandboxPath) {
      await container();
      // Read inside the container: a symbolic link there must not make the host read one of its own files.
      const read = await runDocker(docker, ["exec", "-u", "0", name, "sh", "-c", 'test -f "$1" && cat -- "$1"', "rllm", sandboxPath]);
      return read.status === 0 ? read.stdout : undefined;
    },
    killAll,
    isAlive: () => !isClosed,
    async close() {
      if (isClosed) return;
      isClosed = true;
      await ready.catch(() => {});
      // vfs deletes the container's whole copy of the image: seconds per few hundred MB.
      const removed = await runDocker(docker, ["rm", "-f", name], 120_000);
      if (removed.status !== 0 && !/No such container/i.test(removed.stderr)) {
        throw new Error(`docker rm -f ${name} failed: ${removed.stderr.trim()}; the container may still exist (docker ps -a --filter name=${name})`);
      }
      liveContainers.delete(name);
    },
  };
}

// Containers not yet closed, removed if the process exits without closing them (an interrupted run).
const liveContainers = new Set<string>();
let isExitHookSet = false;

function removeLeftoversAtExit(docker: string): void {
  if (isExitHookSet) return;
  isExitHookSet = true;
  process.once("exit", () => {
    if (liveContainers.size > 0) spawnSync(docker, ["rm", "-f", ...liveContainers], { timeout: 30_000 });
  });
}

/** Whether `done` settles within `ms`. */
function endsWithin(done: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([done.then(() => true, () => true), expired]).finally(() => clearTimeout(timer));
}
