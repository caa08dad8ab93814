/** Math verifier throughput: verdicts per second over the mixed case table, in-process on one core and on the worker pool. */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { gradeMath } from "../../verifiers/math/grade-math.js";
import { MathWorkerPool, type MathJob } from "../../verifiers/math/math-worker-pool.js";

interface CaseRow {
  ground_truth: string;
  response: string;
  expected: boolean;
  choices?: string[];
}

const casesFile = fileURLToPath(new URL("../verifiers/math/cases.jsonl", import.meta.url));
const cases = readFileSync(casesFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CaseRow);
const jobs: MathJob[] = cases.map((row) => ({ response: row.response, groundTruth: row.ground_truth, choices: row.choices }));
const rounds = 3;

// One core, in process: the cost of the verifier itself (parsed ground truths cached after the first round).
let agreeing = 0;
let falsePositives = 0;
for (const row of cases) {
  const verdict = gradeMath(row.response, row.ground_truth, undefined, row.choices);
  if (verdict.correct === row.expected) agreeing += 1;
  else if (verdict.correct) falsePositives += 1;
}
const started = performance.now();
for (let round = 0; round < rounds; round += 1) {
  for (const job of jobs) gradeMath(job.response, job.groundTruth, undefined, job.choices);
}
const inProcessRate = (rounds * jobs.length) / ((performance.now() - started) / 1000);
console.log(`cases: ${cases.length} mixed (ground truth, response) pairs from test/verifiers/math/cases.jsonl`);
console.log(`agreement with the expected verdicts: ${((100 * agreeing) / cases.length).toFixed(1)}%, false positives: ${falsePositives}`);
console.log(`in-process, 1 core:        ${inProcessRate.toFixed(0)} verdicts/s`);

/** Verdicts per second through a pool of `size` threads, measured after the threads have started and warmed up. */
async function poolRate(size: number): Promise<number> {
  const pool = new MathWorkerPool({ size, timeoutMs: 5000 });
  try {
    await Promise.all(jobs.map((job) => pool.grade(job)));
    const start = performance.now();
    for (let round = 0; round < rounds; round += 1) await Promise.all(jobs.map((job) => pool.grade(job)));
    return (rounds * jobs.length) / ((performance.now() - start) / 1000);
  } finally {
    await pool.close();
  }
}

const cores = availableParallelism();
console.log(`worker pool, 1 thread:     ${(await poolRate(1)).toFixed(0)} verdicts/s (with a hard time limit per check)`);
console.log(`worker pool, ${cores} threads:     ${(await poolRate(cores)).toFixed(0)} verdicts/s (all cores)`);
console.log(
  "reference: math-verify grades a few tens of verdicts/s per core on such cases (issue 3); it is a Python package\n" +
    "and is not installed here, so it was not run side by side in this benchmark.",
);
