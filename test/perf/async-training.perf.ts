/**
 * `npm run bench -- async-training`: synchronous `rllm train` against `--max-staleness 1` and `2`, same seeds, on the
 * local backend and on the local Tinker server behind a proxy that delays every HTTP request (standing in for a remote
 * service): wall time per update, updates per hour, reward against wall time, and the final held-out pass@1, which
 * must not be worse than the synchronous runs' within two standard errors. Every run is a real CLI process under
 * `nice -n 10`; the machine's load (`uptime`) is printed before and after, since timings depend on it (accuracy does not).
 *
 * Settings (environment): ASYNC_BENCH_RUNS (3 seeds), ASYNC_BENCH_STEPS (12), ASYNC_BENCH_LATENCY_MS (150, each
 * request to the Tinker service waits this long before it is forwarded), ASYNC_BENCH_BACKENDS ("local,tinker"),
 * ASYNC_BENCH_STALENESS ("0,1,2"), ASYNC_BENCH_JSON (a file for the raw figures).
 */
import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(root, "bin", "rllm.js");
const runs = Number(process.env.ASYNC_BENCH_RUNS ?? 3);
const steps = Number(process.env.ASYNC_BENCH_STEPS ?? 12);
const latencyMs = Number(process.env.ASYNC_BENCH_LATENCY_MS ?? 150);
const backends = (process.env.ASYNC_BENCH_BACKENDS ?? "local,tinker").split(",");
const stalenessLevels = (process.env.ASYNC_BENCH_STALENESS ?? "0,1,2").split(",").map(Number);
const work = mkdtempSync(path.join(os.tmpdir(), "rllm-async-bench-"));

// The shipped arith settings without the joint judge: solver rollouts only, validated before and after training.
const config = (seed: number) => ({
  steps,
  tasksPerStep: 16,
  groupSize: 4,
  sampling: { temperature: 1, topP: 1, maxTokens: 64 },
  loss: { kind: "ppo", clipLow: 0.2, clipHigh: 0.28 },
  optimizer: { learningRate: 0.0002, gradClipNorm: 1 },
  validation: { every: steps, split: "test", tasks: 100, attempts: 2 },
  // A whole step's rollouts in flight at once: the sampler can take all of the next step's while an update runs.
  concurrency: 64,
  checkpointEvery: steps,
  seed,
});

interface RunFigures {
  backend: string;
  staleness: number;
  seed: number;
  wallSeconds: number;
  secondsPerUpdate: number;
  finalPassAt1: number;
  finalStderr: number;
  startPassAt1: number;
  meanStaleness: number;
  droppedGroups: number;
  curve: { elapsed: number; reward: number }[];
}

/** Every request waits `delayMs`, then goes to `target` unchanged; the reply comes back unchanged. */
async function startLatencyProxy(target: string, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      setTimeout(() => {
        const forwarded = http.request(
          { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers },
          (reply) => {
            response.writeHead(reply.statusCode ?? 502, reply.headers);
            reply.pipe(response);
          },
        );
        forwarded.on("error", () => response.writeHead(502).end());
        forwarded.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** `rllm serve --tinker` in a process of its own (the service's compute), resolved with its URL. */
async function startTinkerServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn("nice", ["-n", "10", process.execPath, bin, "serve", "--tinker", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`rllm serve --tinker exited ${code}: ${text}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

async function runTraining(backend: string, staleness: number, seed: number, baseUrl: string | undefined): Promise<RunFigures> {
  const out = path.join(work, `${backend}-k${staleness}-s${seed}`);
  const configFile = `${out}.json`;
  writeFileSync(configFile, JSON.stringify(config(seed)));
  const args = [bin, "train", "arith", "--config", configFile, "--out", out, "--max-staleness", String(staleness), ...(baseUrl ? ["--backend", "tinker", "--base-url", baseUrl] : [])];
  const started = performance.now();
  const child = spawn("nice", ["-n", "10", process.execPath, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, RLLM_HOME: path.join(work, "home") } });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`${args.slice(1).join(" ")} exited ${code}:\n${stderr.slice(-2000)}`);
  const wallSeconds = (performance.now() - started) / 1000;
  const records = readFileSync(path.join(out, "metrics.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  const train = records.filter((record) => record.kind === "train");
  const validations = records.filter((record) => record.kind === "validation");
  const first = train[0]!;
  const last = train.at(-1)!;
  const final = validations.at(-1)!;
  return {
    backend,
    staleness,
    seed,
    wallSeconds,
    // Between the first update and the last no validation runs (validation.every = steps): the update rate itself.
    secondsPerUpdate: (last.elapsedSeconds - first.elapsedSeconds) / (train.length - 1),
    finalPassAt1: final.passAt1.mean,
    finalStderr: final.passAt1.stderr,
    startPassAt1: validations[0]!.passAt1.mean,
    meanStaleness: train.reduce((sum: number, record: { staleness: { mean: number } }) => sum + record.staleness.mean, 0) / train.length,
    droppedGroups: train.reduce((sum: number, record: { staleness: { droppedGroups: number } }) => sum + record.staleness.droppedGroups, 0),
    curve: train.map((record: { elapsedSeconds: number; reward: number }) => ({ elapsed: record.elapsedSeconds, reward: record.reward })),
  };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const standardError = (values: readonly number[]) =>
  values.length < 2 ? 0 : Math.sqrt(values.reduce((sum, value) => sum + (value - mean(values)) ** 2, 0) / (values.length - 1) / values.length);
const uptime = () => spawnSync("uptime", { encoding: "utf8" }).stdout.trim();

console.log(`async training bench: ${runs} seeds × staleness ${stalenessLevels.join(", ")} × ${backends.join(", ")}; ${steps} updates of 16 tasks × 4 rollouts (arith, tiny model), validated on 100 test tasks × 2`);
console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load before: ${uptime()}`);
console.log(`Tinker service latency: every request waits ${latencyMs} ms at a proxy before it reaches the local Tinker server (its own process)`);
const figures: RunFigures[] = [];
try {
  for (const backend of backends) {
    const tinker = backend === "tinker" ? await startTinkerServer() : undefined;
    const proxy = tinker ? await startLatencyProxy(tinker.url, latencyMs) : undefined;
    try {
      // Seeds outermost, so each staleness level meets the machine's load changes alike.
      for (let seed = 0; seed < runs; seed++) {
        for (const staleness of stalenessLevels) {
          const run = await runTraining(backend, staleness, seed, proxy?.url);
          figures.push(run);
          console.log(
            `  ${backend} K=${staleness} seed ${seed}: ${run.wallSeconds.toFixed(1)} s wall, ${run.secondsPerUpdate.toFixed(2)} s/update, pass@1 ${(100 * run.startPassAt1).toFixed(1)}% → ${(100 * run.finalPassAt1).toFixed(1)}% ± ${(100 * run.finalStderr).toFixed(1)}, staleness ${run.meanStaleness.toFixed(2)}, ${run.droppedGroups} stale groups dropped`,
          );
        }
      }
    } finally {
      await proxy?.close();
      tinker?.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`load after: ${uptime()}\n`);
console.log("| backend | max staleness | s / update | updates / hour | × sync | final pass@1 (mean ± SE of runs) | Δ vs sync (± 2 SE) | mean staleness | stale groups dropped | wall s per run |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const backend of backends) {
  const sync = figures.filter((run) => run.backend === backend && run.staleness === 0);
  const syncRate = mean(sync.map((run) => run.secondsPerUpdate));
  const syncPass = sync.map((run) => run.finalPassAt1);
  for (const staleness of stalenessLevels) {
    const group = figures.filter((run) => run.backend === backend && run.staleness === staleness);
    if (group.length === 0) continue;
    const perUpdate = mean(group.map((run) => run.secondsPerUpdate));
    const passes = group.map((run) => run.finalPassAt1);
    // Two standard errors of the difference: the runs' spread, or each run's own sampling error when that is larger.
    const errorOf = (runsOf: RunFigures[]) => Math.max(standardError(runsOf.map((run) => run.finalPassAt1)), Math.sqrt(runsOf.reduce((sum, run) => sum + run.finalStderr ** 2, 0)) / runsOf.length);
    const difference = mean(passes) - mean(syncPass);
    const twoErrors = 2 * Math.sqrt(errorOf(group) ** 2 + errorOf(sync) ** 2);
    const verdict = staleness === 0 ? "–" : `${difference >= 0 ? "+" : ""}${(100 * difference).toFixed(1)} (${difference >= -twoErrors ? "not worse" : "WORSE"}, 2 SE ${(100 * twoErrors).toFixed(1)})`;
    console.log(
      `| ${backend} | ${staleness} | ${perUpdate.toFixed(2)} | ${(3600 / perUpdate).toFixed(0)} | ${(syncRate / perUpdate).toFixed(2)} | ${(100 * mean(passes)).toFixed(1)}% ± ${(100 * standardError(passes)).toFixed(1)} | ${verdict} | ${mean(group.map((run) => run.meanStaleness)).toFixed(2)} | ${mean(group.map((run) => run.droppedGroups)).toFixed(1)} | ${mean(group.map((run) => run.wallSeconds)).toFixed(0)} |`,
    );
  }
}
console.log("\nreward against wall time (mean over seeds; seconds since the run started: reward)");
for (const backend of backends) {
  for (const staleness of stalenessLevels) {
    const group = figures.filter((run) => run.backend === backend && run.staleness === staleness);
    if (group.length === 0) continue;
    const points = group[0]!.curve.map((_, index) => ({ elapsed: mean(group.map((run) => run.curve[index]!.elapsed)), reward: mean(group.map((run) => run.curve[index]!.reward)) }));
    console.log(`  ${backend} K=${staleness}: ${points.map((point) => `${point.elapsed.toFixed(0)}s:${point.reward.toFixed(2)}`).join(" ")}`);
  }
}
if (process.env.ASYNC_BENCH_JSON) writeFileSync(process.env.ASYNC_BENCH_JSON, `${JSON.stringify({ steps, runs, latencyMs, figures }, null, 2)}\n`);
