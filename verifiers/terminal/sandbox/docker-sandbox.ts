/**
 * The docker Sandbox backend, through the docker CLI: one container per episode (`sleep infinity`) from the task's
 * image, `docker exec` per command under coreutils `timeout -s KILL` (which signals the command's whole process
 * group), `docker cp` for files, `docker rm -f` on close. Untested here: this machine has the client but no daemon.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { findExecutable } from "../../code/sandbox/find-executable.js";
import { SandboxUnavailableError } from "../../code/sandbox/sandbox-unavailable-error.js";
import { collectOutput } from "./collect-output.js";
import { SandboxSpecSchema, type ExecResult, type Sandbox, type SandboxSpec } from "./sandbox.js";

const installDocker = "Install Docker and start its daemon (docker info must work), or use the bwrap backend";
// The verifier runs as root (Harbor's default); the agent as root too unless the image sets a user, as in Harbor.
const verifierUser = "0";

/** Starts a container for the episode; throws SandboxUnavailableError when docker is missing or has no daemon. */
export function createDockerSandbox(given: Partial<SandboxSpec> = {}): Sandbox {
  const spec = SandboxSpecSchema.parse(given);
  const docker = findExecutable("docker");
  if (!docker) throw new SandboxUnavailableError("docker not found on PATH", installDocker);
  const name = `rllm-terminal-${randomUUID().slice(0, 12)}`;
  const image = spec.image ?? buildImage(docker, spec.buildContext, name, spec.buildTimeoutMs);
  const limits = [...(spec.cpus ? ["--cpus", String(spec.cpus)] : []), "--memory", `${spec.memoryMb}m`, "--memory-swap", `${spec.memoryMb}m`, "--pids-limit", String(spec.processes)];
  const started = spawnSync(docker, ["run", "-d", "--name", name, ...(spec.allowNetwork ? [] : ["--network", "none"]), ...limits, "-w", spec.workdir, image, "sleep", "infinity"], { encoding: "utf8" });
  if (started.status !== 0) throw new SandboxUnavailableError(`docker run failed: ${(started.stderr || started.stdout).trim()}`, installDocker);
  // The verifier's folder is root-only, so the agent (when the image runs it as a user) cannot write the reward.
  spawnSync(docker, ["exec", "-u", verifierUser, name, "sh", "-c", "mkdir -p /logs/agent /logs/verifier /logs/artifacts /tests && chmod 700 /logs/verifier"]);
  let isClosed = false;
  const dockerRun = (args: string[]) => {
    const result = spawnSync(docker, args, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`docker ${args[0]} failed: ${result.stderr.trim()}`);
  };
  return {
    backend: "docker",
    spec,
    exec(command, options = {}) {
      const timeoutSeconds = Math.max(1, Math.ceil((options.timeoutMs ?? spec.commandTimeoutMs) / 1000));
      const env = Object.entries({ ...spec.env, ...options.env }).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
      const user = options.role === "verifier" ? ["-u", verifierUser] : [];
      const begin = performance.now();
      const child = spawn(docker, ["exec", ...user, ...env, "-w", options.cwd ?? spec.workdir, name, "timeout", "-s", "KILL", String(timeoutSeconds), "bash", "-c", command], { stdio: ["ignore", "pipe", "pipe"] });
      const stdout = collectOutput(child.stdout, spec.outputBytes);
      const stderr = collectOutput(child.stderr, spec.outputBytes);
      return new Promise<ExecResult>((resolve, reject) => {
        child.on("error", reject);
        child.on("close", (code) => {
          // timeout(1) exits 137 when it had to KILL the command.
          resolve({ exitCode: code, stdout: stdout.text(), stderr: stderr.text(), timedOut: code === 137, truncated: stdout.truncated || stderr.truncated, durationMs: performance.now() - begin });
        });
      });
    },
    async upload(hostPath, sandboxPath) {
      const isFolder = statSync(hostPath).isDirectory();
      dockerRun(["exec", "-u", verifierUser, name, "mkdir", "-p", isFolder ? sandboxPath : path.posix.dirname(sandboxPath)]);
      // "folder/." copies a folder's contents into the existing target, as the bwrap backend does.
      dockerRun(["cp", isFolder ? `${hostPath}/.` : hostPath, `${name}:${sandboxPath}`]);
    },
    async download(sandboxPath, hostPath) {
      dockerRun(["cp", `${name}:${sandboxPath}`, hostPath]);
    },
    async readText(sandboxPath) {
      const folder = mkdtempSync(path.join(tmpdir(), "rllm-docker-read-"));
      try {
        const copied = spawnSync(docker, ["cp", `${name}:${sandboxPath}`, path.join(folder, "file")]);
        return copied.status === 0 ? readFileSync(path.join(folder, "file"), "utf8") : undefined;
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    async killAll() {
      // Every process but the container's init (sleep infinity, pid 1).
      spawnSync(docker, ["exec", "-u", verifierUser, name, "sh", "-c", "kill -9 -1 2>/dev/null; true"]);
    },
    isAlive: () => !isClosed,
    async close() {
      if (isClosed) return;
      isClosed = true;
      spawnSync(docker, ["rm", "-f", name]);
    },
  };
}

/** Builds the task's environment/ folder (its Dockerfile) as image `rllm-task-<name>`. */
function buildImage(docker: string, context: string | undefined, name: string, timeoutMs: number): string {
  if (!context) throw new SandboxUnavailableError("the task has neither [environment].docker_image nor environment/Dockerfile", "Give the task an image");
  const tag = `rllm-task-${name}`;
  const built = spawnSync(docker, ["build", "-t", tag, context], { encoding: "utf8", timeout: timeoutMs });
  if (built.status !== 0) throw new SandboxUnavailableError(`docker build of ${context} failed: ${(built.stderr || built.stdout || String(built.error)).trim().slice(-2000)}`, installDocker);
  return tag;
}
