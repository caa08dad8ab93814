/**
 * Code verifier speed: HumanEval's 164 canonical solutions graded by us (sandboxed, trusted checker); where the time goes
 * (sandbox start, interpreter start, imports, per-run fork); and programs/s on the bundled DeepCoder sample. The real
 * openai/human-eval harness runs beside it in `npm run bench:peers` (test/perf/peers/).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import pLimit from "p-limit";
import { CodeGrader } from "../../verifiers/code/code-grader.js";
import type { LocalProgramSlots } from "../../src/sandbox/local/local-programs.js";
import { normalizeTests, type TestCase } from "../../verifiers/code/normalize-tests.js";
import { sandboxCommand } from "../../src/sandbox/local/sandbox-command.js";
import { SandboxLimitsSchema } from "../../src/core/sandbox-limits.js";

interface Problem {
  id: string;
  program: string;
  tests: TestCase[];
  fnName?: string;
}

function readJsonl(url: URL): Record<string, unknown>[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function gradeAll(grader: CodeGrader, problems: Problem[]): Promise<{ seconds: number; passed: number; tests: number; failures: string[] }> {
  const limit = pLimit(grader.concurrency);
  const started = performance.now();
  const verdicts = await Promise.all(problems.map((problem) => limit(() => grader.grade(problem))));
  const seconds = (performance.now() - started) / 1000;
  const tests = verdicts.reduce((sum, verdict) => sum + verdict.tests.filter((test) => test.verdict !== "not_run").length, 0);
  const failures = verdicts.flatMap((verdict, index) => (verdict.passed ? [] : [`${problems[index]!.id}: ${verdict.detail}`]));
  return { seconds, passed: verdicts.filter((verdict) => verdict.passed).length, tests, failures };
}

/** Mean wall time of `runs` runs of `command`, milliseconds. */
function meanMs(command: string, args: string[], runs = 10): number {
  const started = performance.now();
  for (let run = 0; run < runs; run += 1) spawnSync(command, args);
  return (performance.now() - started) / runs;
}

const cores = os.availableParallelism();
const createStarted = performance.now();
const grader = await CodeGrader.create();
const createMs = performance.now() - createStarted;
const slots = grader.programs as LocalProgramSlots;
const python = slots.host.python.executable;
console.log(`sandbox: ${slots.host.kind}, python ${slots.host.python.version}, ${grader.concurrency} slots on ${cores} cores; ${slots.memoryPolicy}`);

// HumanEval: each problem's whole `check(candidate)` as one assert test, run by the trusted checker.
const humanEval: Problem[] = readJsonl(new URL("../verifiers/code/human-eval-canonical.jsonl", import.meta.url)).map((row) => ({
  id: String(row.id),
  program: String(row.program),
  tests: [{ kind: "assert", code: String(row.test) }],
}));
const ours = await gradeAll(grader, humanEval);
console.log(`\nHumanEval, ${humanEval.length} canonical solutions, ${grader.concurrency} workers:`);
console.log(`  ours (sandboxed: bwrap slot, fork per problem, seccomp, trusted checker): ${ours.seconds.toFixed(2)} s (${ours.passed}/${humanEval.length} passed)`);
for (const failure of ours.failures.slice(0, 5)) console.log(`    not passed: ${failure}`);
console.log("  the real human-eval harness beside it: npm run bench:peers");

// Where a run's time goes: each figure is measured here, now.
console.log("\nwhere the time goes (mean wall time, this machine, now):");
console.log(`  grader start (bwrap sandbox + interpreter + pre-imports + seccomp self-test + first run), once per slot: ${createMs.toFixed(0)} ms`);
console.log(`  interpreter start alone (python -I -S -c pass): ${meanMs(python, ["-I", "-S", "-c", "pass"]).toFixed(0)} ms`);
// What every run paid before the fork server: the same sandbox set-up around a fresh interpreter.
const sandboxed = sandboxCommand({ host: slots.host, limits: SandboxLimitsSchema.parse({}), slotUid: 199_999, mounts: [], argv: [python, "-I", "-S", "-c", "pass"] });
const sandboxedStarted = performance.now();
for (let run = 0; run < 10; run += 1) spawnSync(sandboxed.file, sandboxed.args, { env: sandboxed.env });
console.log(`  bubblewrap set-up + interpreter start (the sandbox a run used to start each time): ${((performance.now() - sandboxedStarted) / 10).toFixed(0)} ms`);
const imports = "import json, ctypes, typing, collections, math, itertools, functools, heapq, bisect, string, re, random, copy, fractions, decimal";
console.log(`  interpreter start + the imports the fork server does once (${imports.split(",").length} modules): ${meanMs(python, ["-I", "-S", "-c", imports]).toFixed(0)} ms`);
console.log(`  per problem now (sandboxed, steady state, per slot): ${((ours.seconds * 1000 * grader.concurrency) / humanEval.length).toFixed(1)} ms`);

const sample: Problem[] = readJsonl(new URL("../../benchmarks/deepcoder/sample.jsonl", import.meta.url)).map((row) => {
  const { tests, fnName } = normalizeTests(row.tests, row.fn_name as string | null);
  return { id: String(row.id), program: String(row.reference_solution), tests, fnName };
});
const sampleRun = await gradeAll(grader, sample);
console.log(
  `\nbundled DeepCoder sample: ${sample.length} programs, ${sampleRun.tests} tests in ${sampleRun.seconds.toFixed(2)} s → ` +
    `${(sample.length / sampleRun.seconds).toFixed(1)} programs/s, ${(sampleRun.tests / sampleRun.seconds).toFixed(1)} tests/s (${sampleRun.passed}/${sample.length} passed)`,
);
await grader.close();
