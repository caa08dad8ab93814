/**
 * The docker terminal sandbox against a real daemon: the contract (files, processes that persist, uploads, users,
 * limits) and hostile commands (timeout, fork bomb, memory bomb, network, the reward file, a daemon gone at close).
 * The image is made here in seconds: busybox-static and its applet links, `docker import`ed, and a two-line Dockerfile
 * FROM it for the build path. Skipped, with the reason in its name, where no daemon answers `docker info`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDockerEnvironment } from "../../../src/sandbox/docker/docker-environment.js";
import { killTaggedScript } from "../../../src/sandbox/docker/kill-tagged-script.js";
import { sandboxLabel } from "../../../src/sandbox/docker/start-container.js";
import { taskImageTag } from "../../../src/sandbox/docker/task-image.js";
import type { SandboxEnvironment } from "../../../src/core/sandbox-environment.js";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook } from "../../../cookbooks/terminal/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { ChatResponse } from "../../../src/core/llm-client.js";
import { packagePath } from "../../../src/core/package-root.js";
import { createRecordingLlmClient } from "../../../src/testing/index.js";
import { busyboxBinary, importBusyboxImage } from "../../helpers/busybox-image.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";



const hasDaemon = spawnSync("docker", ["info"], { timeout: 10_000 }).status === 0;
const skipReason = !hasDaemon ? "no Docker daemon answers `docker info`" : !busyboxBinary ? "no busybox (Debian: busybox-static) to build the test image" : undefined;

const image = `rllm-test-busybox:${process.pid}`;
// Made in beforeAll, so a skipped suite leaves no folder behind.
let work: string;
let buildContext: string;

/** Host processes whose command line contains `marker` (a container's processes are host processes too). */
function hostProcesses(marker: string): string[] {
  return execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

/** This suite's sandbox containers still on the daemon (those of the test image and of the image built from it). */
function leftoverContainers(): string[] {
  return execFileSync("docker", ["ps", "-aq", "--filter", `label=${sandboxLabel}`, "--filter", `ancestor=${image}`], { encoding: "utf8" }).split("\n").filter((line) => line !== "");
}

const toolReply = (id: string, command: string): ChatResponse => ({
  choices: [{ text: "", toolCalls: [{ id, type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }], finishReason: "tool_calls" }],
  usage: { promptTokens: 0, completionTokens: 0 },
  model: "recording",
});

const describeDocker = skipReason ? describe.skip : describe;

describeDocker(`docker sandbox${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  let sandbox: SandboxEnvironment;
  let built: SandboxEnvironment;
  let orphan: SandboxEnvironment;
  let networked: SandboxEnvironment;
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "rllm-docker-test-"));
    buildContext = path.join(work, "build");
    importBusyboxImage(image);
    mkdirSync(buildContext);
    writeFileSync(path.join(buildContext, "Dockerfile"), `FROM ${image}\nUSER 1000\n`);
    // Containers start in the background: the build and the later sandboxes get ready while the first tests run.
    sandbox = createDockerEnvironment({ image, memoryMb: 128, processes: 64, cpus: 0.5, outputBytes: 64 * 1024 });
    built = createDockerEnvironment({ buildContext, workdir: "/work" });
    orphan = createDockerEnvironment({ image });
    networked = createDockerEnvironment({ image, allowNetwork: true });
  }, 60_000);
  afterAll(async () => {
    // Closing twice is a no-op: this only matters for a test that stopped before its own close.
    for (const each of [sandbox, built, orphan, networked]) await each?.close().catch(() => {});
    const leftovers = leftoverContainers();
    spawnSync("docker", ["rm", "-f", ...leftovers]);
    spawnSync("docker", ["rmi", "-f", image, taskImageTag(buildContext)]);
    rmSync(work, { recursive: true, force: true });
    expect(leftovers).toEqual([]);
  }, 30_000);

  it("keeps files and background processes between commands", async () => {
    const first = await sandbox.exec("echo kept > note.txt && (sh -c 'echo $$ > /tmp/daemon.pid; exec sleep 4545' > /dev/null 2>&1 &) && echo started");
    expect(first.stdout).toBe("started\n");
    const second = await sandbox.exec('cat note.txt && kill -0 "$(cat /tmp/daemon.pid)" && echo alive && pwd');
    expect(second.stdout).toBe("kept\nalive\n/app\n");
  });

  it("applies the spec's CPU, process and memory limits and has no network but loopback", async () => {
    const result = await sandbox.exec(
      "cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/cpu.max /sys/fs/cgroup/pids.max /sys/fs/cgroup/memory.max; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '",
    );
    const [cpu, pids, memory, ...interfaces] = result.stdout.trim().split("\n");
    expect(cpu?.split(" ")[0]).toBe("50000"); // 0.5 of the 100 ms period
    expect(pids).toBe("66"); // 64 for the commands, docker-init and the keep-alive sleep
    expect(memory).toBe(String(128 * 1024 * 1024));
    expect(interfaces).toEqual(["lo"]);
  });

  it("leaves a sandbox whose network is allowed on the daemon's default network, and the others on none", async () => {
    await networked.exec("true");
    const containers = leftoverContainers();
    const modes = execFileSync("docker", ["inspect", "-f", "{{.HostConfig.NetworkMode}}", ...containers], { encoding: "utf8" }).trim().split("\n");
    expect(modes.filter((mode) => mode !== "none")).toEqual(["default"]);
    await networked.close();
  });

  it("uploads files and folders and reads them back, and reads no file that is not there", async () => {
    const folder = path.join(work, "upload");
    mkdirSync(path.join(folder, "inner"), { recursive: true });
    writeFileSync(path.join(folder, "inner", "data.txt"), "data\n");
    await sandbox.upload(folder, "/app/given");
    await sandbox.upload(path.join(folder, "inner", "data.txt"), "/opt/deep/file.txt");
    expect(await sandbox.readText("/app/given/inner/data.txt")).toBe("data\n");
    expect(await sandbox.readText("/opt/deep/file.txt")).toBe("data\n");
    expect(await sandbox.readText("/app/missing.txt")).toBeUndefined();
    await sandbox.download("/app/given", path.join(work, "downloaded"));
    expect(execFileSync("cat", [path.join(work, "downloaded", "inner", "data.txt")], { encoding: "utf8" })).toBe("data\n");
  });

  it("kills a command and everything it started when its time is up", async () => {
    const result = await sandbox.exec("setsid sleep 4343 & sleep 4343", { timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(hostProcesses("sleep 4343")).toEqual([]);
    expect((await sandbox.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("caps a command's output", async () => {
    const result = await sandbox.exec("head -c 200000 /dev/zero | tr '\\0' x");
    expect(result.truncated).toBe(true);
    expect(result.stdout).toHaveLength(64 * 1024);
  });

  it("kills a memory bomb at the memory cap and stays usable", async () => {
    // sort holds its one 300 MB line in memory: past the 128 MiB cap the kernel kills it.
    const bomb = await sandbox.exec("head -c 300000000 /dev/zero | sort > /dev/null; echo status $?");
    expect(bomb.timedOut).toBe(false);
    expect(bomb.stdout).toBe("status 137\n");
    expect((await sandbox.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("contains a fork bomb under the process limit and stays usable", async () => {
    // A name no other process on the shared host has: "bomb" also matched other commands (a vitest -t "fork bomb").
    const name = `dockerbomb${process.pid}`;
    const bomb = await sandbox.exec(`${name}() { ${name} | ${name} & }; ${name}; sleep 30`, { timeoutMs: 1000 });
    expect(bomb.timedOut).toBe(true);
    expect(hostProcesses(name)).toEqual([]);
    expect((await sandbox.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("reports a kill scan that could not fork as a failure (then the container restarts), not as nothing left", () => {
    // What a fork bomb does to the scan, made exact: uid 4242 (no other process on the host has it) may own 3
    // processes: the script's shell and a tagged sleep hold two, the scan's subshell takes the third, and its grep
    // cannot fork. Before the sentinel line the empty scan read as "no process left" (exit 0) and the bomb lived on.
    const run = spawnSync(
      "docker",
      ["run", "--rm", "--network", "none", "-u", "4242", "--entrypoint", "sh", image, "-c", 'RLLM_SANDBOX_COMMAND=t sleep 300 & ulimit -u 3; exec sh -c "$0" rllm RLLM_SANDBOX_COMMAND=t', killTaggedScript],
      { encoding: "utf8", timeout: 30_000 },
    );
    expect(run.stderr).toMatch(/can't fork/);
    expect(run.status).toBe(1);
  });

  it("grades nothing a root agent planted for the verifier, gives the verifier a home of its own, and no agent process outlives killAll", async () => {
    await sandbox.exec("mkdir -p /logs/verifier /tests && echo 1 > /logs/verifier/reward.txt && echo planted > /tests/conftest.py && (sh -c 'sleep 0.5; echo 1 > /logs/verifier/reward.txt' > /dev/null 2>&1 &)");
    // Issue #29: a usercustomize.py in the agent's home, and one where the verifier's home will be.
    await sandbox.exec('mkdir -p "$HOME/.local" /run/rllm-verifier && echo planted > "$HOME/.local/usercustomize.py" && echo planted > /run/rllm-verifier/usercustomize.py');
    await sandbox.killAll();
    const verifier = await sandbox.exec("ls -A /tests /logs/verifier; id -u", { role: "verifier" });
    expect(verifier.stdout).toBe("/logs/verifier:\n\n/tests:\n0\n");
    const home = await sandbox.exec('echo "$HOME $TMPDIR $PYTHONNOUSERSITE"; ls -A "$HOME"', { role: "verifier" });
    expect(home.stdout).toBe("/run/rllm-verifier /run/rllm-verifier 1\n");
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await sandbox.readText("/logs/verifier/reward.txt")).toBeUndefined();
    expect((await sandbox.exec("cat note.txt")).stdout).toBe("kept\n"); // the restart kept the files
  });

  it("reads a reward file inside the container, so a symbolic link to a host path reads nothing of the host", async () => {
    const hostFile = path.join(work, "host-only.txt");
    writeFileSync(hostFile, "0.99\n");
    await sandbox.exec(`ln -sf ${hostFile} /logs/verifier/reward.txt`, { role: "verifier" });
    expect(await sandbox.readText("/logs/verifier/reward.txt")).toBeUndefined();
  });

  it("builds a task's Dockerfile, runs the agent as the image's user and only the verifier as root", async () => {
    try {
      const agent = await built.exec("id -u; echo 1 > /logs/verifier/reward.txt; ls /tests; touch own.txt && echo wrote", { role: "agent" });
      expect(agent.stdout).toBe("1000\nwrote\n");
      expect(agent.stderr).toMatch(/Permission denied[\s\S]*Permission denied/);
      const folder = path.join(work, "files");
      mkdirSync(folder);
      writeFileSync(path.join(folder, "given.txt"), "x");
      await built.upload(folder, "/work");
      expect((await built.exec("stat -c %u given.txt && echo more >> given.txt && echo appended")).stdout).toBe("1000\nappended\n");
      await built.exec("echo 0.5 > /logs/verifier/reward.txt", { role: "verifier" });
      expect(await built.readText("/logs/verifier/reward.txt")).toBe("0.5\n");
    } finally {
      await built.close();
    }
  }, 30_000);

  it("reports a daemon gone at close, naming the container, without hanging", async () => {
    await orphan.exec("true");
    const daemonHost = process.env.DOCKER_HOST;
    // The client now talks to a socket no daemon listens on: what a daemon that died looks like to it.
    process.env.DOCKER_HOST = `unix://${path.join(work, "no-daemon.sock")}`;
    let failure: unknown;
    try {
      await orphan.close();
    } catch (error) {
      failure = error;
    } finally {
      if (daemonHost === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = daemonHost;
    }
    const name = /docker rm -f (rllm-terminal-[\w-]+) failed/.exec(String(failure))?.[1];
    expect(name).toBeDefined();
    expect(orphan.isAlive()).toBe(false);
    await expect(orphan.exec("true")).rejects.toThrow(/closed/);
    // The container the unreachable daemon kept, removed here by the name the error gave.
    execFileSync("docker", ["rm", "-f", name!], { stdio: "ignore" });
  });

  it("runs a bash-agent episode of a bundled task in one container: a process from turn 1 is alive in turn 2, and the verifier grades 1", async () => {
    const helloFile = loadTerminalTasks(packagePath("benchmarks/terminal-sample/tasks")).find((task) => task.id === "rllm/hello-file")!;
    const replies = [
      toolReply("1", "(sh -c 'echo $$ > /tmp/worker.pid; exec sleep 600' > /dev/null 2>&1 &)"),
      toolReply("2", 'kill -0 "$(cat /tmp/worker.pid)" && echo "Hello, world!" > /app/hello.txt'),
      "done",
    ];
    const client = createRecordingLlmClient({ reply: (_request, index) => replies[index]! });
    const cookbook = createTerminalCookbook({ agent: "bash", image });
    const dockerRun = openTestRun({ sandbox: { provider: "docker" } });
    try {
      const episode = (await cookbook.flow(helloFile, dockerRun.flowContext(client))) as Episode;
      expect(episode.trajectories[0]!.steps).toHaveLength(3);
      expect((await cookbook.evaluate(helloFile, episode, dockerRun.evaluatorContext())).value).toBe(1);
    } finally {
      await dockerRun.close();
    }
  }, 30_000);
});
