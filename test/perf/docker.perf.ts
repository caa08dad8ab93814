/**
 * `npm run bench -- docker`: the docker terminal sandbox's start-up (create → first command done), the latency of a
 * trivial command (`true`) through `docker exec` against the same command spawned bare, `killAll` (a restart) and
 * `close`; with DOCKER_BENCH_IMAGE (an image with bash, python3 and pytest, such as a debootstrap bookworm, see
 * docs/terminal-agents.md), also oracle episodes per minute over the bundled tasks in it. Without it the image is a
 * busybox one made on the spot. Prints a line and exits 0 where no daemon answers. Figures depend on the load and on the
 * storage driver (vfs copies the image for every container).
 */
import { spawn, spawnSync } from "node:child_process";
import { loadTerminalTasks } from "../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook } from "../../cookbooks/terminal/index.js";
import type { Episode } from "../../src/core/episode.js";
import { packagePath } from "../../src/core/package-root.js";
import { percentile } from "../../src/metrics/percentile.js";
import { createDockerSandbox } from "../../verifiers/terminal/sandbox/docker-sandbox.js";
import { importBusyboxImage } from "../helpers/busybox-image.js";

const commands = Number(process.env.DOCKER_COMMANDS ?? 50);
const startups = Number(process.env.DOCKER_STARTUPS ?? 5);
const concurrency = Number(process.env.DOCKER_CONCURRENCY ?? 2);
const benchImage = process.env.DOCKER_BENCH_IMAGE;

const summary = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

async function bareCommand(): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", "true"], { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
  return performance.now() - started;
}

if (spawnSync("docker", ["info"], { timeout: 10_000 }).status !== 0) {
  console.log("skipped: no Docker daemon answers `docker info`");
  process.exit(0);
}
const image = benchImage ?? `rllm-bench-busybox:${process.pid}`;
if (!benchImage) importBusyboxImage(image);
try {
  const startupTimes: number[] = [];
  const killTimes: number[] = [];
  const closeTimes: number[] = [];
  for (let run = 0; run < startups; run++) {
    let started = performance.now();
    const sandbox = createDockerSandbox({ image });
    await sandbox.exec("true");
    startupTimes.push(performance.now() - started);
    started = performance.now();
    await sandbox.killAll();
    killTimes.push(performance.now() - started);
    started = performance.now();
    await sandbox.close();
    closeTimes.push(performance.now() - started);
  }
  console.log(`${image}: start-up (create + first command), ${startups} sandboxes: ${summary(startupTimes)}; killAll (restart) ${summary(killTimes)}; close ${summary(closeTimes)}`);

  const sandbox = createDockerSandbox({ image });
  await sandbox.exec("true");
  const sandboxed: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < commands; run++) {
    // Interleaved, so both see the same load.
    sandboxed.push((await sandbox.exec("true")).durationMs);
    bare.push(await bareCommand());
  }
  await sandbox.close();
  console.log(`command \`true\`, ${commands} runs: docker exec ${summary(sandboxed)}; bare spawn ${summary(bare)}`);
  console.log(`overhead at the median: ${(percentile(sandboxed, 50) - percentile(bare, 50)).toFixed(1)} ms`);

  if (benchImage) {
    const tasks = loadTerminalTasks(packagePath("benchmarks/terminal-sample/tasks"));
    const cookbook = createTerminalCookbook({ agent: "oracle", backend: "docker", image: benchImage });
    const noModel = { model: "none", chat: () => Promise.reject(new Error("the oracle calls no model")) };
    const started = performance.now();
    let next = 0;
    let correct = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < tasks.length) {
          const task = tasks[next++]!;
          const episode = (await cookbook.flow(task, { client: noModel, sampling: {}, attempt: 0, signal: new AbortController().signal })) as Episode;
          if ((await cookbook.evaluate(task, episode)).isCorrect) correct++;
        }
      }),
    );
    const minutes = (performance.now() - started) / 60_000;
    console.log(`oracle in ${benchImage}: ${tasks.length} episodes (${correct} correct) at concurrency ${concurrency}: ${(tasks.length / minutes).toFixed(1)} episodes/min`);
  }
} finally {
  if (!benchImage) spawnSync("docker", ["rmi", "-f", image]);
}
