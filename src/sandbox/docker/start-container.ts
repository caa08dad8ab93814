/**
 * Starts an episode's container: `docker run -d` of the task's image with the spec's limits and network, then one
 * probe as the image's user (its uid and gid, and whether bash exists) and one setup as root (the /logs folders,
 * the root-only verifier folders, the workdir given to the agent's user).
 */
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";
import type { SandboxSpec } from "../../core/sandbox-environment.js";
import { dockerOutput, runDocker } from "./run-docker.js";
import { taskImage, type ImageBuilds } from "./task-image.js";

/** What the sandbox learnt about its container at start. */
export interface StartedContainer {
  /** `bash` when the image has it, else `sh` (busybox, alpine). */
  shell: string;
  /** uid:gid of the image's default user, who runs the agent's commands. */
  agentOwner: string;
  isAgentRoot: boolean;
}

/** Label on every sandbox container: `docker rm -f $(docker ps -aq --filter label=rllm.sandbox)` removes leftovers. */
export const sandboxLabel = "rllm.sandbox=terminal";

/** The folders only the verifier may use: made root-only at start, emptied again when verification begins. */
export const verifierFolders = ["/tests", "/logs/verifier"];

const installDocker = "Install Docker and start its daemon (docker info must work), or use --sandbox local";

/** Runs container `name` for `spec` and prepares it. */
export async function startContainer(docker: string, name: string, spec: SandboxSpec, builds: ImageBuilds): Promise<StartedContainer> {
  const image = await taskImage(docker, spec, builds);
  const limits = [
    ...(spec.cpus ? ["--cpus", String(spec.cpus)] : []),
    // Memory and swap equal: no swap, so a memory bomb is killed at the cap instead of thrashing.
    ...["--memory", `${spec.memoryMb}m`, "--memory-swap", `${spec.memoryMb}m`],
    // docker-init and the keep-alive sleep count too.
    ...["--pids-limit", String(spec.processes + 2)],
  ];
  // --init: docker-init reaps orphans, whose zombies would otherwise fill the pids limit after a fork bomb.
  const run = ["run", "-d", "--init", "--name", name, "--label", sandboxLabel, ...(spec.allowNetwork ? [] : ["--network", "none"]), ...limits, "-w", spec.workdir, "--entrypoint", "sleep", image, "infinity"];
  // The build's time limit covers the start too: docker run may pull the image, and vfs copies all of it.
  const started = await runDocker(docker, run, spec.buildTimeoutMs);
  if (started.status !== 0) throw new SandboxUnavailableError(`docker run of ${image} failed: ${(started.stderr || started.stdout).trim().slice(-2000)}`, installDocker);
  const probeArgs = ["exec", name, "sh", "-c", 'id -u; id -g; command -v bash || echo none'];
  const [uid, gid, bash] = dockerOutput(probeArgs, await runDocker(docker, probeArgs)).trim().split("\n");
  const agentOwner = `${uid}:${gid}`;
  const isAgentRoot = uid === "0";
  const setup = [
    `mkdir -p /tmp /logs/agent /logs/artifacts ${verifierFolders.join(" ")} "$1"`,
    `chmod 700 ${verifierFolders.join(" ")}`,
    `chmod 1777 /tmp`,
    ...(isAgentRoot ? [] : [`chown ${agentOwner} /logs/agent /logs/artifacts "$1"`]),
  ].join(" && ");
  const setupArgs = ["exec", "-u", "0", name, "sh", "-c", setup, "rllm-setup", spec.workdir];
  dockerOutput(setupArgs, await runDocker(docker, setupArgs));
  return { shell: bash === "none" ? "sh" : "bash", agentOwner, isAgentRoot };
}
