/**
 * `npm run bench -- sandbox`: the bwrap terminal sandbox's start-up (create → first command done), the latency of a
 * trivial command (`true`) through the sandbox against the same command spawned bare on the host (the difference is the
 * sandbox's overhead; goal: under 20 ms at the median), and oracle episodes per minute over the bundled tasks.
 * Figures depend on the machine's load: compare runs on a quiet machine.
 */
import { spawn } from "node:child_process";
import { loadTerminalTasks } from "../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook } from "../../cookbooks/terminal/index.js";
import type { Episode } from "../../src/core/episode.js";
import { packagePath } from "../../src/core/package-root.js";
import { percentile } from "../../src/metrics/percentile.js";
import { createBwrapSandbox } from "../../verifiers/terminal/sandbox/bwrap-sandbox.js";

const commands = Number(process.env.SANDBOX_COMMANDS ?? 200);
const startups = Number(process.env.SANDBOX_STARTUPS ?? 20);
const concurrency = Number(process.env.SANDBOX_CONCURRENCY ?? 2);

const summary = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

async function bareCommand(): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", "true"], { stdio: "ignore", detached: true });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
  return performance.now() - started;
}

const startupTimes: number[] = [];
for (let run = 0; run < startups; run++) {
  const started = performance.now();
  const sandbox = createBwrapSandbox();
  await sandbox.exec("true");
  startupTimes.push(performance.now() - started);
  await sandbox.close();
}
console.log(`start-up (create + first command), ${startups} sandboxes: ${summary(startupTimes)}`);

const sandbox = createBwrapSandbox();
const sandboxed: number[] = [];
const bare: number[] = [];
for (let run = 0; run < commands; run++) {
  // Interleaved, so both see the same load.
  sandboxed.push((await sandbox.exec("true")).durationMs);
  bare.push(await bareCommand());
}
await sandbox.close();
console.log(`command \`true\`, ${commands} runs: sandboxed ${summary(sandboxed)}; bare spawn ${summary(bare)}`);
console.log(`overhead at the median: ${(percentile(sandboxed, 50) - percentile(bare, 50)).toFixed(1)} ms (goal < 20 ms)`);

const tasks = loadTerminalTasks(packagePath("benchmarks/terminal-sample/tasks"));
const cookbook = createTerminalCookbook({ agent: "oracle" });
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
console.log(`oracle: ${tasks.length} episodes (${correct} correct) at concurrency ${concurrency}: ${(tasks.length / minutes).toFixed(1)} episodes/min`);
