/**
 * `npm run bench -- rate-limit`: 16 concurrent callers through the eval's call pipeline against a scripted server that
 * sends x-ratelimit headers and timestamps every arrival. Prints, for --rpm 120 and for --tpm 2400, the arrivals per
 * second (a histogram) and the busiest sliding 1 s window after the first second (the limits allow 2 requests and
 * 40 tokens). Arrival times are wall-clock, so a loaded machine can delay a granted request into a later window.
 */
import { buildModelCallPipeline } from "../../src/evaluation/model-call-pipeline.js";
import { createRateLimiter } from "../../src/evaluation/model-call-pipeline.js";
import { RetryBudget } from "../../src/llm/retry-policy.js";
import { startScriptedServer } from "../helpers/scripted-openai-server.js";

const requests = Number(process.env.RATE_LIMIT_REQUESTS ?? 24);
const callers = 16;

async function measure(label: string, limits: { requestsPerMinute?: number; tokensPerMinute?: number }, allowedPerSecond: number, unit: "requests" | "tokens") {
  const arrivals: { time: number; tokens: number }[] = [];
  const server = await startScriptedServer((body) => {
    const prompt = JSON.stringify(body.messages[0].content).length;
    arrivals.push({ time: performance.now(), tokens: prompt + 8 });
    return { text: "12345678", headers: { "x-ratelimit-remaining-requests": "1000", "x-ratelimit-reset-requests": "1s" } };
  });
  const limiter = createRateLimiter(limits);
  const { client } = buildModelCallPipeline({ baseUrl: server.url, model: "scripted", maxRetries: 0, retryBudget: new RetryBudget(0), onRetry: () => {}, limiter });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < requests) {
        const index = next++;
        await client.chat({ messages: [{ role: "user", content: `question ${String(index).padStart(3, "0")}` }], maxTokens: 8, temperature: 0 });
      }
    }),
  );
  await server.close();
  const cost = (arrival: { tokens: number }) => (unit === "requests" ? 1 : arrival.tokens);
  const times = arrivals.map((arrival) => ({ second: (arrival.time - started) / 1000, cost: cost(arrival) }));
  const histogram = new Map<number, number>();
  for (const { second, cost: value } of times) histogram.set(Math.floor(second), (histogram.get(Math.floor(second)) ?? 0) + value);
  const afterWarmUp = times.filter((time) => time.second >= 1);
  let busiest = 0;
  for (const start of afterWarmUp) {
    busiest = Math.max(busiest, afterWarmUp.filter((time) => time.second >= start.second && time.second < start.second + 1).reduce((sum, time) => sum + time.cost, 0));
  }
  console.log(`\n${label}: ${requests} requests from ${callers} callers in ${((performance.now() - started) / 1000).toFixed(1)} s; waited ${(limiter!.stats().waitedMs / 1000).toFixed(1)} s in all`);
  console.log(`  ${unit} per second: ${[...histogram].sort(([a], [b]) => a - b).map(([second, value]) => `${second}s:${value}`).join(" ")}`);
  console.log(`  busiest 1 s window after warm-up: ${busiest} ${unit} (limit ${allowedPerSecond})`);
}

await measure("--rpm 120", { requestsPerMinute: 120 }, 2, "requests");
await measure("--tpm 2400", { tokensPerMinute: 2400 }, 40, "tokens");
