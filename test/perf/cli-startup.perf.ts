/**
 * `npm run bench -- cli-startup`: wall time from spawn to exit of `rllm --help`, `rllm eval --help`, `rllm train --help`
 * and `rllm grade --verifier math` on a one-row file, through bin/rllm.js as a user runs it (the build when it is fresh). Also counts the modules
 * each loads and says whether it loaded TensorFlow (help must not). Figures depend on the machine's load: compare runs on a quiet machine.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "../../bin/build-stamp.js";
import { percentile } from "../../src/metrics/percentile.js";
import { createLoadRecorder } from "../helpers/record-loads.js";

const runs = Number(process.env.CLI_STARTUP_RUNS ?? 7);
const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(repository, "bin/rllm.js");
const folder = mkdtempSync(path.join(tmpdir(), "rllm-startup-"));
const rows = path.join(folder, "rows.jsonl");
writeFileSync(rows, `${JSON.stringify({ id: 1, response: "\\boxed{4}", ground_truth: "4" })}\n`);

const commands: [string, string[]][] = [
  ["rllm --help", ["--help"]],
  ["rllm eval --help", ["eval", "--help"]],
  ["rllm train --help", ["train", "--help"]],
  ["rllm grade --verifier math (1 row)", ["grade", "--verifier", "math", "--input", rows, "--output", path.join(folder, "out.jsonl")]],
];

// bin/rllm.js runs the build when its stamp matches the sources, else the sources through tsx: say which this measures.
const runsTheBuild = await isBuildFresh(repository);
console.log(
  `bin/rllm.js runs ${runsTheBuild ? "the build, dist/ (fresh)" : "the sources through tsx (dist/ missing or stale: npm run build)"}; ` +
    `${runs} runs each after one warm-up; wall ms from spawn to exit`,
);
for (const [label, args] of commands) {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${label} exited ${result.status}: ${result.stderr}`);
    if (run > 0) times.push(performance.now() - started);
  }
  const recorder = createLoadRecorder(folder, "command");
  spawnSync(process.execPath, [...recorder.args, bin, ...args], { env: { ...process.env, ...recorder.environment } });
  const loaded = recorder.loaded();
  const loadsTensorFlow = loaded.some((url) => url.includes("@tensorflow"));
  // Module counts do not depend on the machine's load, so they compare across runs where times cannot.
  const ownModules = loaded.filter((url) => url.startsWith("file:") && !url.includes("/node_modules/")).length;
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(36)} median ${percentile(sorted, 50).toFixed(0).padStart(5)} ms  min ${sorted[0]!.toFixed(0).padStart(5)} ms  ` +
      `max ${sorted.at(-1)!.toFixed(0).padStart(5)} ms  modules ${String(loaded.length).padStart(4)} (${String(ownModules).padStart(3)} of rllm-ts)  ` +
      `loads TensorFlow: ${loadsTensorFlow ? "yes" : "no"}`,
  );
}
rmSync(folder, { recursive: true, force: true });
