/**
 * `npm run bench -- sandbox`: the bwrap terminal sandbox's start-up (create → first command done), the latency of a
 * trivial command (`true`) through the sandbox against the same command spawned bare on the host (the difference is the
 * sandbox's overhead; goal: under 20 ms at the median), and oracle episodes per minute over the bundled tasks.
 * Figures depend on the machine's load: compare runs on a quiet machine.
 */
import { createTerminalCookbook } from "../../cookbooks/terminal/index.js";
import { percentile } from "../../src/metrics/percentile.js";
import { createBwrapEnvironment } from "../../src/sandbox/local/bwrap-environment.js";
import { bareCommandMs, latencySummary, oracleThroughput } from "./terminal-sandbox-figures.js";

const commands = Number(process.env.SANDBOX_COMMANDS ?? 200);
const startups = Number(process.env.SANDBOX_STARTUPS ?? 20);
const concurrency = Number(process.env.SANDBOX_CONCURRENCY ?? 2);

const startupTimes: number[] = [];
for (let run = 0; run < startups; run++) {
  const started = performance.now();
  const sandbox = createBwrapEnvironment();
  await sandbox.exec("true");
  startupTimes.push(performance.now() - started);
  await sandbox.close();
}
console.log(`start-up (create + first command), ${startups} sandboxes: ${latencySummary(startupTimes)}`);

const sandbox = createBwrapEnvironment();
const sandboxed: number[] = [];
const bare: number[] = [];
for (let run = 0; run < commands; run++) {
  // Interleaved, so both see the same load.
  sandboxed.push((await sandbox.exec("true")).durationMs);
  bare.push(await bareCommandMs());
}
await sandbox.close();
console.log(`command \`true\`, ${commands} runs: sandboxed ${latencySummary(sandboxed)}; bare spawn ${latencySummary(bare)}`);
console.log(`overhead at the median: ${(percentile(sandboxed, 50) - percentile(bare, 50)).toFixed(1)} ms (goal < 20 ms)`);

const oracle = await oracleThroughput(createTerminalCookbook({ agent: "oracle" }), concurrency);
console.log(`oracle: ${oracle.episodes} episodes (${oracle.correct} correct) at concurrency ${concurrency}: ${oracle.perMinute.toFixed(1)} episodes/min`);
