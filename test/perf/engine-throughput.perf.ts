/**
 * Engine overhead: episodes/s of `runEval` (with the client `rllm eval` builds) at concurrency 64 against a zero-latency
 * server, beside bare fetch and bare node:http loops sending the same request. Target (issue #32): engine ≥ 50% of node:http.
 * It measures the build, dist/, which is what `rllm eval` runs (bin/rllm.js runs dist/ whenever it is fresh), building it
 * first when it is missing or stale: the sources through tsx run slower (its `__name` wrappers on every nested function).
 */
import { mkdtempSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { fork, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "../../bin/build-stamp.js";
import type { Task } from "../../src/core/task.js";
import type { ChatResponse, LlmClient } from "../../src/core/llm-client.js";
import { openRunResources } from "../../src/sandbox/run-resources.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
if (!(await isBuildFresh(root))) {
  console.log("dist/ is missing or older than the sources: building it (npm run build)");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}
/** A module of the build, typed as its source. */
const built = (file: string) => import(new URL(`dist/${file}`, `file://${root}`).href);
const { runEval } = (await built("src/engine/run-eval.js")) as typeof import("../../src/engine/run-eval.js");
const { runPaths } = (await built("src/runs/run-directory.js")) as typeof import("../../src/runs/run-directory.js");
const { buildModelCallPipeline } = (await built("src/evaluation/model-call-pipeline.js")) as typeof import("../../src/evaluation/model-call-pipeline.js");
const { qaCookbook } = (await built("cookbooks/qa/index.js")) as typeof import("../../cookbooks/qa/index.js");

const concurrency = 64;
const requests = 4000;

const server = fork(new URL("./zero-latency-server.ts", import.meta.url), { execArgv: ["--import", "tsx"] });
const port = await new Promise<number>((resolve) => server.once("message", (message) => resolve(message as number)));
const baseUrl = `http://127.0.0.1:${port}/v1`;

async function bareFetchLoop(count: number): Promise<number> {
  const limit = pLimit(concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, () =>
      limit(async () => {
        const response = await fetch(`${baseUrl}/chat/completions`, { method: "POST", headers: engineRequest.headers, body: engineRequest.body });
        await response.json();
      }),
    ),
  );
  return count / ((performance.now() - started) / 1000);
}

// The engine's client sends over node:http (src/llm/node-http-transport.ts), which costs less than the built-in fetch;
// this loop shows how much of the engine's rate is that transport and how much is the engine's own overhead.
async function bareNodeHttpLoop(count: number): Promise<number> {
  const limit = pLimit(concurrency);
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(`${baseUrl}/chat/completions`);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, () =>
      limit(
        () =>
          new Promise<void>((resolve, reject) => {
            const request = http.request(url, { method: "POST", agent, headers: { ...engineRequest.headers, "content-length": Buffer.byteLength(engineRequest.body) } }, (reply) => {
              const chunks: Buffer[] = [];
              reply.on("data", (chunk: Buffer) => chunks.push(chunk));
              reply.on("end", () => {
                JSON.parse(Buffer.concat(chunks).toString("utf8"));
                resolve();
              });
              reply.on("error", reject);
            });
            request.on("error", reject);
            request.end(engineRequest.body);
          }),
      ),
    ),
  );
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

// What `rllm eval` builds for an endpoint without --rpm, --tpm or --cache.
const pipelineClient = () => buildModelCallPipeline({ baseUrl, model: "bench" }).client;

async function engineRun(count: number, client: LlmClient = pipelineClient()): Promise<number> {
  const tasks: Task[] = Array.from({ length: count }, (_, index) => ({ id: `t${index}`, instruction: "What is 6*7?", metadata: { ground_truth: "42" } }));
  const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-bench-"));
  const started = performance.now();
  const result = await runEval({
    tasks,
    cookbook: qaCookbook,
    client,
    resources: openRunResources(),
    sampling: {},
    attempts: 1,
    concurrency,
    timeoutMs: 60_000,
    paths: runPaths(directory),
    signal: new AbortController().signal,
  });
  const elapsed = (performance.now() - started) / 1000;
  if (result.summary.metrics.accuracy.mean !== 1) throw new Error("engine bench: every episode should be correct");
  return count / elapsed;
}

// Warm up every path (JIT, keep-alive sockets), then alternate rounds of each and report medians, so a burst of load
// from elsewhere on the machine does not land on one side only. The ratio is also taken round by round (each engine
// run beside the node:http loop just before it), which drifting load disturbs less than a ratio of medians.
const rounds = 5;
await engineRun(300);
// The bare loops send exactly the engine's request: its body (system prompt, question, logprobs, return_token_ids) and
// the headers its client sends (those the openai SDK would send), less the ones each transport sets itself.
server.send("record-next");
const recorded = new Promise<{ headers: Record<string, string>; body: string }>((resolve) => server.once("message", (message) => resolve(message as never)));
await engineRun(1);
const { headers: sent, body: sentBody } = await recorded;
const engineRequest = {
  headers: Object.fromEntries(Object.entries(sent).filter(([name]) => !["host", "connection", "content-length"].includes(name))),
  body: sentBody,
};
// The engine's own part: the same runs with a client that answers at once with the server's reply as the model client
// parsed it (a fresh copy per call, as the client makes), so no HTTP, no reply parsing and no retry wrapper are in it.
const answer: ChatResponse = await pipelineClient().chat({ messages: [{ role: "user", content: "What is 6*7?" }] });
const instantClient: LlmClient = { model: "bench", chat: async () => ({ ...answer, choices: answer.choices.map((choice) => ({ ...choice })) }) };
const engineWithoutHttp = (count: number) => engineRun(count, instantClient);
await engineWithoutHttp(300);
await bareFetchLoop(300);
await bareNodeHttpLoop(300);
const bareRates: number[] = [];
const nodeHttpRates: number[] = [];
const engineRates: number[] = [];
const nodeHttpCpu: number[] = [];
const engineCpu: number[] = [];
const engineOwnCpu: number[] = [];
/** Runs `loop`, recording this process's CPU microseconds (user + system) per request: what load elsewhere disturbs least. */
async function measured(loop: (count: number) => Promise<number>, cpu: number[]): Promise<number> {
  const before = process.cpuUsage();
  const rate = await loop(requests);
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / requests);
  return rate;
}
const loadBefore = os.loadavg()[0]!;
for (let round = 0; round < rounds; round++) {
  bareRates.push(await bareFetchLoop(requests));
  nodeHttpRates.push(await measured(bareNodeHttpLoop, nodeHttpCpu));
  engineRates.push(await measured(engineRun, engineCpu));
  await measured(engineWithoutHttp, engineOwnCpu);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(", ");
const bare = median(bareRates);
const engine = median(engineRates);
const nodeHttp = median(nodeHttpRates);
const pairedRatios = engineRates.map((rate, round) => (100 * rate) / nodeHttpRates[round]!);
console.log("the build, dist/ (what rllm eval runs)");
console.log(`load average:     ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after (1 min; ${os.cpus().length} cores)`);
console.log(`bare fetch loop:  ${bare.toFixed(0)} requests/s (median of ${list(bareRates)}; concurrency ${concurrency}, ${requests} requests)`);
console.log(`engine (runEval): ${engine.toFixed(0)} episodes/s (median of ${list(engineRates)}; qa cookbook, graded, appended to episodes.jsonl)`);
console.log(`bare node:http:   ${nodeHttp.toFixed(0)} requests/s (median of ${list(nodeHttpRates)}; the transport the engine's client uses)`);
console.log(`engine / bare:    ${((100 * engine) / bare).toFixed(1)}%`);
console.log(`engine / node:http: ${((100 * engine) / nodeHttp).toFixed(1)}% of medians; ${median(pairedRatios).toFixed(1)}% median of rounds (${list(pairedRatios)}) (target ≥ 50%)`);
const engineCpuMedian = median(engineCpu);
const nodeHttpCpuMedian = median(nodeHttpCpu);
console.log(
  `CPU per request:  engine ${engineCpuMedian.toFixed(0)} µs, node:http ${nodeHttpCpuMedian.toFixed(0)} µs (medians; this process only, the server runs in another):` +
    ` the engine's rate on CPU time alone is ${((100 * nodeHttpCpuMedian) / engineCpuMedian).toFixed(1)}% of node:http's`,
);
const engineOwnCpuMedian = median(engineOwnCpu);
console.log(
  `  of which:       the engine's own ${engineOwnCpuMedian.toFixed(0)} µs (runEval with a client that answers at once: flow, grading, episode checks, log),` +
    ` the model client and its transport ${(engineCpuMedian - engineOwnCpuMedian).toFixed(0)} µs (node:http alone: ${nodeHttpCpuMedian.toFixed(0)} µs)`,
);
server.disconnect();
