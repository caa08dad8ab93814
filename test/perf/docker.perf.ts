/**
 * `npm run bench -- docker`: the docker terminal sandbox's start-up (create → first command done), the latency of a
 * trivial command (`true`) through `docker exec` against the same command spawned bare, `killAll` (a restart) and
 * `close`; with DOCKER_BENCH_IMAGE (an image with bash, python3 and pytest, such as a debootstrap bookworm, see
 * docs/terminal-agents.md), also oracle episodes per minute over the bundled tasks in it. Without it the image is a
 * busybox one made on the spot. Prints a line and exits 0 where no daemon answers. Figures depend on the load and on the
 * storage driver (vfs copies the image for every container).
 */
import { spawnSync } from "node:child_process";
import { createTerminalCookbook } from "../../cookbooks/terminal/index.js";
import { percentile } from "../../src/metrics/percentile.js";
import { createDockerEnvironment } from "../../src/sandbox/docker/docker-environment.js";
import { importBusyboxImage } from "../helpers/busybox-image.js";
import { bareCommandMs, latencySummary, oracleThroughput } from "./terminal-sandbox-figures.js";

const commands = Number(process.env.DOCKER_COMMANDS ?? 50);
const startups = Number(process.env.DOCKER_STARTUPS ?? 5);
const concurrency = Number(process.env.DOCKER_CONCURRENCY ?? 2);
const benchImage = process.env.DOCKER_BENCH_IMAGE;

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
    const sandbox = createDockerEnvironment({ image });
    await sandbox.exec("true");
    startupTimes.push(performance.now() - started);
    started = performance.now();
    await sandbox.killAll();
    killTimes.push(performance.now() - started);
    started = performance.now();
    await sandbox.close();
    closeTimes.push(performance.now() - started);
  }
  console.log(`${image}: start-up (create + first command), ${startups} sandboxes: ${latencySummary(startupTimes)}; killAll (restart) ${latencySummary(killTimes)}; close ${latencySummary(closeTimes)}`);

  const sandbox = createDockerEnvironment({ image });
  await sandbox.exec("true");
  const sandboxed: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < commands; run++) {
    // Interleaved, so both see the same load.
    sandboxed.push((await sandbox.exec("true")).durationMs);
    bare.push(await bareCommandMs());
  }
  await sandbox.close();
  console.log(`command \`true\`, ${commands} runs: docker exec ${latencySummary(sandboxed)}; bare spawn ${latencySummary(bare)}`);
  console.log(`overhead at the median: ${(percentile(sandboxed, 50) - percentile(bare, 50)).toFixed(1)} ms`);

  if (benchImage) {
    const oracle = await oracleThroughput(createTerminalCookbook({ agent: "oracle", image: benchImage }), concurrency, { provider: "docker" });
    console.log(`oracle in ${benchImage}: ${oracle.episodes} episodes (${oracle.correct} correct) at concurrency ${concurrency}: ${oracle.perMinute.toFixed(1)} episodes/min`);
  }
} finally {
  if (!benchImage) spawnSync("docker", ["rmi", "-f", image]);
}
