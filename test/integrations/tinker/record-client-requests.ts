/**
 * Records every request the TypeScript Tinker client sends, and the reply it parsed, through a proxy in front of the
 * local Tinker server; integrations/tinker/test_client_wire.py validates them with the official SDK's types.
 * Usage: node --import tsx test/integrations/tinker/record-client-requests.ts <out.json>
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { LossConfigSchema, OptimizerConfigSchema, type LossConfig, type TrainBatch, type TrainingBackend } from "../../../src/training/backend.js";
import { createTinkerBackend } from "../../../src/training/backends/tinker/tinker-backend.js";
import { TinkerHttpClient } from "../../../src/llm/tinker/tinker-http-client.js";
import { tinyChatRenderer } from "../../../src/llm/tinker/tiny-chat-renderer.js";
import { startLocalTinkerServer } from "../../../src/tinker-server/local-tinker-server.js";

interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  replyType: string;
  reply: string;
}

const out = process.argv[2];
if (!out) throw new Error("usage: record-client-requests.ts <out.json>");

const server = await startLocalTinkerServer();
const target = new URL(server.url);
const exchanges: Exchange[] = [];
// Headers that carry meaning on the wire (the idempotency key is random per attempt).
const KEPT_HEADERS = ["content-type", "content-encoding", "accept", "x-api-key"];

const proxy = createServer((incoming, answer) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    const body = Buffer.concat(chunks);
    const forwarded = httpRequest({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (reply) => {
      const replyChunks: Buffer[] = [];
      reply.on("data", (chunk: Buffer) => replyChunks.push(chunk));
      reply.on("end", () => {
        const replyBody = Buffer.concat(replyChunks);
        exchanges.push({
          method: incoming.method ?? "GET",
          path: incoming.url ?? "/",
          headers: Object.fromEntries(KEPT_HEADERS.flatMap((name) => (incoming.headers[name] ? [[name, String(incoming.headers[name])]] : []))),
          body: body.toString("base64"),
          status: reply.statusCode ?? 0,
          replyType: String(reply.headers["content-type"] ?? ""),
          reply: replyBody.toString("base64"),
        });
        answer.writeHead(reply.statusCode ?? 500, reply.headers);
        answer.end(replyBody);
      });
    });
    forwarded.end(body);
  });
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const address = proxy.address() as { port: number };
const client = new TinkerHttpClient({ baseUrl: `http://127.0.0.1:${address.port}`, credentials: () => "tml-wire-recording" });

const batch = (loss: Partial<LossConfig> & { kind: LossConfig["kind"] }, aggregation: TrainBatch["lossAggregation"]): TrainBatch => ({
  sequences: [0, 1].map((index) => ({
    tokens: [2, 40, 41, 42, 4, 3, 50 + index, 51, 4],
    lossMask: [0, 0, 0, 0, 0, 0, 1, 1, 1],
    samplerLogprobs: [0, 0, 0, 0, 0, 0, -2, -2, -1],
    advantage: index === 0 ? 1 : -1,
  })),
  loss: LossConfigSchema.parse(loss),
  lossAggregation: aggregation,
  merge: "prefix",
  optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-3 }),
  substeps: 1,
});

async function finished(backend: TrainingBackend, stepId: string): Promise<void> {
  for (;;) {
    const status = await backend.status(stepId);
    if (status.state === "failed") throw new Error(`step ${stepId} failed: ${JSON.stringify(status)}`);
    if (status.state !== "running") return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const directory = mkdtempSync(path.join(tmpdir(), "tinker-wire-"));
try {
  const backend = createTinkerBackend({ client, loadRenderer: async () => tinyChatRenderer, heartbeatMs: 200 });
  const policy = await backend.open({ baseModel: "rllm/tiny" });
  await backend.sample({ policy, promptTokenIds: [2, 40, 41, 4, 3], n: 2, maxTokens: 4, temperature: 0.7, seed: 3, stopTokenIds: [4] });
  await finished(backend, (await backend.submit(batch({ kind: "importance_sampling" }, "token-mean"))).stepId);
  await finished(backend, (await backend.submit(batch({ kind: "ppo" }, "sum"))).stepId);
  await finished(backend, (await backend.submit(batch({ kind: "cross_entropy" }, "sum"))).stepId);
  await backend.forward?.(batch({ kind: "cross_entropy" }, "sum"));
  const published = await backend.publish();
  await backend.sample({ policy: published, promptTokenIds: [2, 40, 41, 4, 3], n: 1, maxTokens: 4, temperature: 1, seed: 5 });
  await backend.checkpoint(path.join(directory, "step-0001"));
  await backend.close();
  const second = createTinkerBackend({ client, loadRenderer: async () => tinyChatRenderer });
  await second.open({ baseModel: "rllm/tiny" });
  await second.restore(path.join(directory, "step-0001"));
  await second.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
  writeFileSync(out, JSON.stringify(exchanges, null, 1));
  proxy.close();
  await server.close();
}
