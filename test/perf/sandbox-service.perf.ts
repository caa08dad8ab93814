/**
 * Grading past one machine: programs/s through 1, 2 and 4 `rllm sandbox serve` processes on loopback (each pinned to
 * its own cores with taskset where it exists) against local grading in the same run, and so the cost of the HTTP hop.
 * The workload is code-dev.jsonl's passing stdin and function-call programs (assert tests stay local by design).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import pLimit from "p-limit";
import { CodeGrader } from "../../verifiers/code/code-grader.js";
import { normalizeTests } from "../../verifiers/code/normalize-tests.js";
import type { CodeProblem, ProgramGrader } from "../../verifiers/code/program-grader.js";
import { RemoteCodeGrader } from "../../verifiers/code/remote/remote-code-grader.js";
import { sandboxServiceOrigin } from "../helpers/sandbox-service-origin.js";
import { RemoteProgramHosts } from "../../src/sandbox/remote/remote-programs.js";

const cores = os.availableParallelism();
const bin = fileURLToPath(new URL("../../bin/rllm.js", import.meta.url));
const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;

const problems: CodeProblem[] = readFileSync(new URL("../fixtures/code-dev.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { program: string; tests: unknown; fn_name?: string | null; expected_pass: boolean })
  .filter((row) => row.expected_pass)
  .map((row) => ({ program: row.program, ...normalizeTests(row.tests, row.fn_name) }))
  .filter((problem) => problem.tests.every((test) => test.kind !== "assert"))
  .slice(0, 120);

async function throughput(grader: ProgramGrader): Promise<{ perSecond: number; passed: number }> {
  const limit = pLimit(grader.concurrency);
  const started = performance.now();
  const verdicts = await Promise.all(problems.map((problem) => limit(() => grader.grade(problem))));
  return { perSecond: problems.length / ((performance.now() - started) / 1000), passed: verdicts.filter((verdict) => verdict.passed).length };
}

async function startService(index: number, slots: number): Promise<{ origin: string; child: ChildProcess }> {
  const cpus = Array.from({ length: slots }, (_, offset) => (index * slots + offset) % cores).join(",");
  const args = [bin, "sandbox", "serve", "--port", "0", "--concurrency", String(slots)];
  const child = hasTaskset ? spawn("taskset", ["-c", cpus, process.execPath, ...args]) : spawn(process.execPath, args);
  return { origin: await sandboxServiceOrigin(child), child };
}

console.log(`${problems.length} passing stdin/function-call programs; ${cores} cores; taskset ${hasTaskset ? "pins each service" : "not available"}; load ${os.loadavg()[0]!.toFixed(2)}`);
const local = await CodeGrader.create({ concurrency: cores });
const localFigures = await throughput(local);
await local.close();
console.log(`\n| grader | programs/s | passed | vs local |\n|---|---|---|---|`);
console.log(`| local, ${cores} slots | ${localFigures.perSecond.toFixed(1)} | ${localFigures.passed}/${problems.length} | 1.00× |`);
for (const count of [1, 2, 4]) {
  const slots = Math.max(1, Math.floor(cores / count));
  const services = await Promise.all(Array.from({ length: count }, (_, index) => startService(index, slots)));
  const hosts = new RemoteProgramHosts(services.map((service) => ({ url: service.origin })), { concurrency: count * slots * 2 });
  const grader = new RemoteCodeGrader(hosts, { timeoutSeconds: 6, runAllTests: false });
  const figures = await throughput(grader);
  console.log(`| ${count} × rllm sandbox serve (${slots} slot${slots > 1 ? "s" : ""} each) | ${figures.perSecond.toFixed(1)} | ${figures.passed}/${problems.length} | ${(figures.perSecond / localFigures.perSecond).toFixed(2)}× |`);
  for (const service of services) service.child.kill("SIGTERM");
}
console.log(`load at the end ${os.loadavg()[0]!.toFixed(2)}; on one machine the services share its cores, so the rows show the HTTP hop's cost, and scaling needs one service per machine`);
