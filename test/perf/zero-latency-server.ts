/**
 * A zero-latency OpenAI-compatible server, run as a child process (sending its port over IPC), so that its cost shares
 * neither the measuring thread nor the measuring process's CPU time. Sent "record-next", it sends back the headers and
 * body of the next request it gets, so the bare loops can send exactly what the engine sends.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const body = JSON.stringify({
  id: "x",
  object: "chat.completion",
  created: 0,
  model: "bench",
  choices: [{ index: 0, message: { role: "assistant", content: "The answer is \\boxed{42}" }, finish_reason: "stop", token_ids: [1, 2, 3], logprobs: { content: [{ token: "a", logprob: -0.1 }, { token: "b", logprob: -0.2 }, { token: "c", logprob: -0.3 }] } }],
  prompt_token_ids: [4, 5, 6],
  usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
});

let isRecordingNext = false;
process.on("message", (message) => {
  if (message === "record-next") isRecordingNext = true;
});

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  const isRecorded = isRecordingNext;
  isRecordingNext = false;
  if (isRecorded) request.on("data", (chunk: Buffer) => chunks.push(chunk));
  else request.resume();
  request.on("end", () => {
    if (isRecorded) process.send!({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send!((server.address() as AddressInfo).port));
// Ends with the benchmark that started it.
process.on("disconnect", () => process.exit(0));
