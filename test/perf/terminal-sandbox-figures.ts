/** Measurements shared by the terminal sandbox benchmarks (bwrap and docker): a bare spawn to compare with, and oracle throughput. */
import { spawn } from "node:child_process";
import { loadTerminalTasks } from "../../benchmarks/harbor/load-terminal-tasks.js";
import type { Cookbook } from "../../src/core/cookbook.js";
import type { Episode } from "../../src/core/episode.js";
import { packagePath } from "../../src/core/package-root.js";
import { percentile } from "../../src/metrics/percentile.js";
import type { SandboxSetting } from "../../src/core/sandbox-setting.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

/** "p50 … ms, p95 … ms" of `values` (milliseconds). */
export const latencySummary = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

/** Milliseconds to spawn `bash -c true` on the host and see it exit: the baseline a sandboxed command is compared with. */
export async function bareCommandMs(): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", "true"], { stdio: "ignore", detached: true });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
  return performance.now() - started;
}

/** Runs the oracle over every bundled terminal task with `concurrency` episodes in flight; counts and episodes per minute. */
export async function oracleThroughput(cookbook: Cookbook, concurrency: number, sandbox: SandboxSetting = { provider: "local" }): Promise<{ episodes: number; correct: number; perMinute: number }> {
  const run = openTestRun({ sandbox });
  const tasks = loadTerminalTasks(packagePath("benchmarks/terminal-sample/tasks"));
  const noModel = { model: "none", chat: () => Promise.reject(new Error("the oracle calls no model")) };
  const started = performance.now();
  let next = 0;
  let correct = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++]!;
        const episode = (await cookbook.flow(task, run.flowContext(noModel))) as Episode;
        if ((await cookbook.evaluate(task, episode, run.evaluatorContext())).isCorrect) correct++;
      }
    }),
  );
  await run.close();
  const minutes = (performance.now() - started) / 60_000;
  return { episodes: tasks.length, correct, perMinute: tasks.length / minutes };
}
