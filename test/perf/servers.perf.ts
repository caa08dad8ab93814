/**
 * Load on the three OpenAI-compatible servers, each in its own `rllm` process as a user runs it: the tiny-model server,
 * the rerank server (upstream: the tiny server) and the gateway (upstream: the tiny server). 200 concurrent clients send
 * a bounded number of requests on 127.0.0.1 while a probe asks /health every 20 ms. Prints latency p50/p95, throughput,
 * the server's peak memory (VmHWM) and the health latency under load. Goal: /health under 100 ms at p95.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";

const CLIENTS = 200;
const binPath = fileURLToPath(new URL("../../bin/rllm.js", import.meta.url));
const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** Starts `rllm ...args` and resolves with the URL its banner prints. */
function startServer(args: string[], banner: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [binPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = banner.exec(output);
      if (match) resolve({ child, url: match[1]!.replace(/\/v1$/, "") });
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("close", (code) => reject(new Error(`rllm ${args.join(" ")} exited ${code}: ${output}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/** POSTs JSON; resolves with the status (0: the connection failed) and the milliseconds until the whole reply was read. */
function post(url: string, body: unknown): Promise<{ status: number; milliseconds: number }> {
  const started = performance.now();
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    const done = (status: number) => resolve({ status, milliseconds: performance.now() - started });
    const request = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(text) } }, (response) => {
      response.resume();
      response.on("end", () => done(response.statusCode ?? 0));
      response.on("error", () => done(0));
    });
    request.on("error", () => done(0));
    request.end(text);
  });
}

// The probe uses its own connection, as a load balancer would.
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** Milliseconds until /health answered (a failed probe counts as the time it took to fail). */
function health(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = () => resolve(performance.now() - started);
    http
      .get(`${url}/health`, { agent: probeAgent }, (response) => {
        response.resume();
        response.on("end", done);
        response.on("error", done);
      })
      .on("error", done);
  });
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** Peak resident memory of a process in MiB (Linux VmHWM). */
function peakMemoryMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Runs CLIENTS clients of `perClient` requests each against `target`, probing `healthUrls` meanwhile. */
async function drive(label: string, target: string, body: unknown, perClient: number, server: ChildProcess, healthUrls: Record<string, string>): Promise<void> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const healthLatencies: Record<string, number[]> = Object.fromEntries(Object.keys(healthUrls).map((name) => [name, []]));
  let running = true;
  const probes = Object.entries(healthUrls).map(async ([name, url]) => {
    while (running) {
      healthLatencies[name]!.push(await health(url));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let request = 0; request < perClient; request++) {
        const { status, milliseconds } = await post(target, body);
        latencies.push(milliseconds);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await Promise.all(probes);
  const statusText = [...statuses.entries()].map(([status, count]) => `${count}×${status === 0 ? "connection error" : status}`).join(", ");
  console.log(`${label}: ${latencies.length} requests from ${CLIENTS} clients in ${seconds.toFixed(1)} s (${statusText})`);
  console.log(`  latency p50 ${(percentile(latencies, 0.5) / 1000).toFixed(2)} s, p95 ${(percentile(latencies, 0.95) / 1000).toFixed(2)} s; throughput ${(latencies.length / seconds).toFixed(1)} requests/s; peak RSS ${peakMemoryMiB(server.pid!).toFixed(0)} MiB`);
  for (const [name, values] of Object.entries(healthLatencies)) {
    console.log(`  /health of the ${name} under load: ${values.length} probes, p50 ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`);
  }
}

const chat = { model: "tiny", messages: [{ role: "user", content: "What is 12+7*3?" }], max_tokens: 24, temperature: 1 };
const tiny = await startServer(["serve", "--model", "tiny", "--port", "0"], /tiny model at (\S+)/);
await drive("tiny server", `${tiny.url}/v1/chat/completions`, chat, 3, tiny.child, { "tiny server": tiny.url });

const rerank = await startServer(["serve", "--rerank", "v1", "--upstream", `${tiny.url}/v1`, "--model", "tiny", "-n", "4", "--budget", "1", "--port", "0"], /reranking server at (\S+)/);
await drive("rerank server (n 4, budget 1×n)", `${rerank.url}/v1/chat/completions`, chat, 1, rerank.child, { "rerank server": rerank.url, "tiny upstream": tiny.url });

const gateway = await startServer(["gateway", "--upstream", `${tiny.url}/v1`, "--port", "0"], /rllm gateway on (\S+)/);
await drive("gateway", `${gateway.url}/sessions/load/v1/chat/completions`, chat, 3, gateway.child, { gateway: gateway.url, "tiny upstream": tiny.url });

for (const child of children) child.kill("SIGINT");
agent.destroy();
probeAgent.destroy();
