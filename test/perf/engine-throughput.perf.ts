/** Engine overhead: episodes/s of `runEval` at concurrency 64 against a zero-latency server, beside a bare fetch loop. Target ≥ 70%. */
import { mkdtempSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { startTsWorker } from "../../src/core/worker.js";
import { runEval } from "../../src/engine/run-eval.js";
import { runPaths } from "../../src/runs/run-directory.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { qaCookbook } from "../../cookbooks/qa/index.js";
import type { Task } from "../../src/core/task.js";

const concurrency = 64;
const requests = 4000;

const worker = startTsWorker(new URL("./zero-latency-server.ts", import.meta.url));
const port = await new Promise<number>((resolve) => worker.once("message", resolve));
const baseUrl = `http://127.0.0.1:${port}/v1`;
const payload = JSON.stringify({ model: "bench", messages: [{ role: "user", content: "What is 6*7?" }], logprobs: true, return_token_ids: true });

async function bareFetchLoop(count: number): Promise<number> {
  const limit = pLimit(concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, () =>
      limit(async () => {
        const response = await fetch(`${baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: payload });
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
            const request = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } }, (reply) => {
              const chunks: Buffer[] = [];
              reply.on("data", (chunk: Buffer) => chunks.push(chunk));
              reply.on("end", () => {
                JSON.parse(Buffer.concat(chunks).toString("utf8"));
                resolve();
              });
              reply.on("error", reject);
            });
            request.on("error", reject);
            request.end(payload);
          }),
      ),
    ),
  );
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

async function engineRun(count: number): Promise<number> {
  const tasks: Task[] = Array.from({ length: count }, (_, index) => ({ id: `t${index}`, instruction: "What is 6*7?", metadata: { ground_truth: "42" } }));
  const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-bench-"));
  const client = createOpenAiClient({ baseUrl, model: "bench" });
  const started = performance.now();
  const result = await runEval({
    tasks,
    cookbook: qaCookbook,
    client,
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

// Warm up both paths (JIT, keep-alive sockets), then alternate three rounds of each and report medians,
// so a burst of load from elsewhere on the machine does not land on one side only.
await bareFetchLoop(300);
await bareNodeHttpLoop(300);
await engineRun(300);
const bareRates: number[] = [];
const nodeHttpRates: number[] = [];
const engineRates: number[] = [];
for (let round = 0; round < 3; round++) {
  bareRates.push(await bareFetchLoop(requests));
  nodeHttpRates.push(await bareNodeHttpLoop(requests));
  engineRates.push(await engineRun(requests));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const bare = median(bareRates);
const engine = median(engineRates);
console.log(`bare fetch loop:  ${bare.toFixed(0)} requests/s (median of ${bareRates.map((rate) => rate.toFixed(0)).join(", ")}; concurrency ${concurrency}, ${requests} requests)`);
console.log(`engine (runEval): ${engine.toFixed(0)} episodes/s (median of ${engineRates.map((rate) => rate.toFixed(0)).join(", ")}; qa cookbook, graded, appended to episodes.jsonl)`);
const nodeHttp = median(nodeHttpRates);
console.log(`bare node:http:   ${nodeHttp.toFixed(0)} requests/s (median of ${nodeHttpRates.map((rate) => rate.toFixed(0)).join(", ")}; the transport the engine's client uses)`);
console.log(`engine / bare:    ${((100 * engine) / bare).toFixed(1)}% (target ≥ 70%)`);
console.log(`engine / node:http: ${((100 * engine) / nodeHttp).toFixed(1)}% (the engine's own overhead over its transport)`);
await worker.terminate();
