/**
 * The bench's OpenAI-compatible server, in its own process: `node --import tsx math-answer-server.ts <latency ms>`
 * prints its port. POST …/chat/completions answers "What is A + B?" with "The answer is \boxed{A+B}." after the
 * latency; GET /requests gives the number of completions served (and resets it). Every harness meets the same server.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const latencyMs = Number(process.argv[2] ?? 0);
let served = 0;

function completion(answer: string): string {
  return JSON.stringify({
    id: `bench-${served}`,
    object: "chat.completion",
    created: 0,
    model: "bench",
    choices: [{ index: 0, message: { role: "assistant", content: `The answer is \\boxed{${answer}}.` }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
  });
}

const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/requests") {
    response.end(JSON.stringify({ served }));
    served = 0;
    return;
  }
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const match = /What is (\d+) \+ (\d+)\?/.exec(Buffer.concat(chunks).toString("utf8"));
    const body = completion(match ? String(Number(match[1]) + Number(match[2])) : "0");
    served += 1;
    const send = () => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      response.end(body);
    };
    if (latencyMs > 0) setTimeout(send, latencyMs);
    else send();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log((server.address() as AddressInfo).port));
