/**
 * Math verifier speed: `rllm grade --verifier math` start-up (whole process on a 3-row file), whole-process verdicts
 * per second on a few thousand rows, the math verifier's own import time, and in-process verdicts per second.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gradeMath } from "../../verifiers/math/grade-math.js";

interface Row {
  response: string;
  ground_truth: string | string[];
}

const root = fileURLToPath(new URL("../../", import.meta.url));
const readRows = (file: string, toRow: (value: Record<string, unknown>) => Row): Row[] =>
  readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => toRow(JSON.parse(line) as Record<string, unknown>));
const caseRows = readRows("test/verifiers/math/cases.jsonl", (row) => ({
  response: row.response as string,
  ground_truth: row.ground_truth as string,
}));
const suiteRows = readRows("test/verifiers/math/public-suites.jsonl", (row) => ({
  response: row.prediction as string,
  ground_truth: row.gold as string | string[],
})).filter((row) => row.ground_truth !== "" && !(Array.isArray(row.ground_truth) && row.ground_truth.every((truth) => truth === "")));
const mixedRows = [...caseRows, ...suiteRows];
const targetRows = 3000;
const bigRows = Array.from({ length: targetRows }, (_, index) => mixedRows[index % mixedRows.length]!);
const runs = 3;

const directory = mkdtempSync(path.join(tmpdir(), "rllm-math-bench-"));
const write = (name: string, rows: Row[]) => {
  const file = path.join(directory, name);
  writeFileSync(file, rows.map((row, index) => JSON.stringify({ id: index, ...row })).join("\n") + "\n");
  return file;
};
const tinyFile = write("tiny.jsonl", [
  { response: "\\boxed{\\frac{1}{2}}", ground_truth: "0.5" },
  { response: "The answer is $x = 3$", ground_truth: "3" },
  { response: "\\boxed{(x+1)^2}", ground_truth: "x^2+2x+1" },
]);
const bigFile = write("big.jsonl", bigRows);

/** Median wall time in seconds of `node <args>` run `runs` times (the process must exit 0). */
function wallSeconds(args: string[]): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    times.push((performance.now() - started) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const rllm = path.join(root, "bin/rllm.js");
const grade = (input: string) => [rllm, "grade", "--verifier", "math", "--input", input, "--output", path.join(directory, "out.jsonl")];
try {
  const nodeFloor = wallSeconds(["-e", ""]);
  const tsxFloor = wallSeconds(["--import", "tsx", "-e", ""]);
  const importOnly = wallSeconds(["--import", "tsx", "-e", `await import(${JSON.stringify(path.join(root, "verifiers/math/index.ts"))})`]);
  const startUp = wallSeconds(grade(tinyFile));
  const big = wallSeconds(grade(bigFile));
  console.log(`machine: ${runs} runs each, median wall time; node alone ${nodeFloor.toFixed(2)} s, node + tsx ${tsxFloor.toFixed(2)} s`);
  console.log(`import verifiers/math (node + tsx):               ${importOnly.toFixed(2)} s`);
  console.log(`rllm grade --verifier math, 3 rows (start-up):    ${startUp.toFixed(2)} s`);
  console.log(`rllm grade --verifier math, ${bigRows.length} rows:           ${big.toFixed(2)} s = ${(bigRows.length / big).toFixed(0)} verdicts/s whole process`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}

// In process on one core: the verifier itself (parsed ground truths cached after the first round).
for (const row of mixedRows) gradeMath(row.response, row.ground_truth);
const started = performance.now();
for (const row of bigRows) gradeMath(row.response, row.ground_truth);
console.log(`in process, 1 core:                               ${(bigRows.length / ((performance.now() - started) / 1000)).toFixed(0)} verdicts/s`);
console.log(
  `rows: ${mixedRows.length} mixed pairs (cases.jsonl + public-suites.jsonl) repeated to ${bigRows.length}.\n` +
    "math-verify (Python) is not installed here, so it is not run side by side.",
);
