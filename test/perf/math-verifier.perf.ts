/**
 * Math verifier speed: `rllm grade --verifier math` start-up (whole process on a 3-row file) from the build and from
 * the sources, where that start-up goes, whole-process verdicts per second on small and large files, and in-process
 * verdicts per second. The real math-verify runs beside it on the same rows in `npm run bench:peers`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { isBuildFresh } from "../../bin/build-stamp.js";
import { defaultMathPolicy } from "../../verifiers/math/math-policy.js";
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
const repeated = (count: number) => Array.from({ length: count }, (_, index) => mixedRows[index % mixedRows.length]!);
const runs = Number(process.env.MATH_BENCH_RUNS ?? 5);

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
const sizes = [100, 500, 3000];
const files = sizes.map((size) => write(`rows-${size}.jsonl`, repeated(size)));

/** Median wall time in seconds of `node <args>`, after one unmeasured warm-up run (the process must exit 0). */
function wallSeconds(args: string[]): number {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    if (run > 0) times.push((performance.now() - started) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Median milliseconds from starting a grading thread of the build to its "ready" message (loaded and warm). */
async function workerReadyMs(): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const worker = new Worker(new URL("dist/verifiers/math/math-worker.js", `file://${root}`), { workerData: { data: { warmUpPolicy: defaultMathPolicy } } });
    await new Promise((resolve) => worker.once("message", resolve));
    if (run > 0) times.push(performance.now() - started);
    await worker.terminate();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const format = (seconds: number) => `${seconds.toFixed(2)} s`;
const output = path.join(directory, "out.jsonl");
const grade = (input: string) => ["grade", "--verifier", "math", "--input", input, "--output", output];
const bin = path.join(root, "bin/rllm.js");
try {
  if (!(await isBuildFresh(root))) {
    console.log("dist/ is missing or older than the sources: building it (npm run build)");
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  console.log(`median of ${runs} runs after one warm-up, whole process, wall time`);
  const nodeAlone = wallSeconds(["-e", ""]);
  const help = wallSeconds([bin, "grade", "--help"]);
  const ready = (await workerReadyMs()) / 1000;
  const startUp = wallSeconds([bin, ...grade(tinyFile)]);
  const fromSources = wallSeconds(["--import", "tsx", path.join(root, "src/cli/main.ts"), ...grade(tinyFile)]);
  console.log(`rllm grade --verifier math, 3 rows (start-up), the build:     ${format(startUp)}`);
  console.log(`  node alone:                                                 ${format(nodeAlone)}`);
  console.log(`  rllm grade --help (CLI, zod, flag schemas; no grading):     ${format(help)}`);
  console.log(`  a grading thread from start to warm (mathjs loaded):        ${format(ready)}`);
  console.log(`rllm grade --verifier math, 3 rows, the sources through tsx:  ${format(fromSources)} (a checkout whose build is stale)`);
  for (const [index, size] of sizes.entries()) {
    const seconds = wallSeconds([bin, ...grade(files[index]!)]);
    console.log(`rllm grade --verifier math, ${String(size).padStart(4)} rows:                       ${format(seconds)} = ${(size / seconds).toFixed(0)} verdicts/s whole process`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}

// In process on one core: the verifier itself (parsed ground truths cached after the first round).
const bigRows = repeated(3000);
for (const row of mixedRows) gradeMath(row.response, row.ground_truth);
const started = performance.now();
for (const row of bigRows) gradeMath(row.response, row.ground_truth);
console.log(`in process, 1 core:                                           ${(bigRows.length / ((performance.now() - started) / 1000)).toFixed(0)} verdicts/s`);
// Hostile answers (issue #44), in process, each graded once (a repeat would come from the comparison cache): what an
// answer built to be slow or to score where it is wrong costs.
const hostile: [string, string, string][] = [
  ["\\boxed{1 and 100,000 zeros}", `\\boxed{1${"0".repeat(100_000)}}`, "1"],
  ["\\boxed{2} 20,000 times, against 3", "\\boxed{2}".repeat(20_000), "3"],
  ["100,000 unclosed \\( and no box", "\\(".repeat(100_000), "3"],
  ["a 1,000,000-character response, one box at its end", `${"We check the case again. ".repeat(40_000)}\\boxed{42}`, "42"],
  ["x+10^{-41} against x", "\\boxed{x+10^{-41}}", "x"],
  ["x^2+e^{-1000} against x^2", "\\boxed{x^2+e^{-1000}}", "x^2"],
  ["\\pi+e^{-1000} against \\pi", "\\boxed{\\pi+e^{-1000}}", "\\pi"],
  ["x+\\lfloor x^2/100\\rfloor against x", "\\boxed{x+\\lfloor x^2/100\\rfloor}", "x"],
  // Exact forms: a right answer past 320 digits, and answers built to make the form costly (it gives up past its bounds).
  ["x^{1000} against (x^{10})^{100} (right)", "\\boxed{x^{1000}}", "(x^{10})^{100}"],
  ["(x+y)^{100}(x-y)^{100} against (x^2-y^2)^{100} (right)", "\\boxed{(x+y)^{100}(x-y)^{100}}", "(x^2-y^2)^{100}"],
  ["(x+1) multiplied 300 times, against x", `\\boxed{${"(x+1)".repeat(300)}}`, "x"],
];
for (const [label, response, truth] of hostile) {
  const hostileStarted = performance.now();
  const verdict = gradeMath(response, truth);
  console.log(`hostile, in process: ${label.padEnd(52)} ${(performance.now() - hostileStarted).toFixed(0).padStart(6)} ms, ${verdict.reward}`);
}
console.log(
  `rows: ${mixedRows.length} mixed pairs (cases.jsonl + public-suites.jsonl), repeated.\n` +
    "math-verify 0.9.0 (the real package, from PyPI) runs beside this on the same 3,000 rows, same run, in\n" +
    "npm run bench:peers (docs/results/peers.md).",
);
