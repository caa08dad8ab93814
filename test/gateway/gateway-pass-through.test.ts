import OpenAI from "openai";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTinyServer, type TinyServer } from "../../src/models/tiny/server.js";
import { GATEWAY_MAX_BODY_BYTES, startGateway, type Gateway } from "../../src/gateway/gateway-server.js";
import { TraceRecordSchema } from "../../src/gateway/trace-record.js";
import { postOversizedBody } from "../helpers/post-oversized-body.js";

// The embedded tiny model as the upstream: it streams and completes text the vLLM way (token ids, logprobs).
let tiny: TinyServer;
let gateway: Gateway;
let traceFile: string;

beforeAll(async () => {
  tiny = await startTinyServer({ port: 0 });
  traceFile = path.join(mkdtempSync(path.join(os.tmpdir(), "gateway-")), "traces.jsonl");
  gateway = await startGateway({ upstream: `${tiny.url}/v1`, traceFile });
});
afterAll(async () => {
  await gateway.close();
  await tiny.close();
});

const client = (session: string) => new OpenAI({ baseURL: gateway.sessionUrl(session), apiKey: "unused", maxRetries: 0 });

describe("gateway pass-through", () => {
  it("relays a chat stream chunk by chunk and records it with token ids and logprobs", async () => {
    const stream = await client("stream").chat.completions.create({ model: "tiny", messages: [{ role: "user", content: "3+4" }], stream: true, seed: 5, max_tokens: 12 });
    let text = "";
    const chunks: Record<string, unknown>[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk as unknown as Record<string, unknown>);
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(chunks.length).toBeGreaterThan(2);
    // Server-only fields and the logprobs the gateway added are gone from what the client sees.
    for (const chunk of chunks) {
      expect(chunk).not.toHaveProperty("prompt_token_ids");
      for (const choice of chunk.choices as Record<string, unknown>[]) {
        expect(choice).not.toHaveProperty("token_ids");
        expect(choice.logprobs ?? null).toBeNull();
      }
    }
    const [trace] = gateway.traces("stream");
    expect(trace).toMatchObject({ endpoint: "chat/completions", streamed: true });
    expect(trace!.choices[0]!.text).toBe(text);
    expect(trace!.promptTokenIds!.length).toBeGreaterThan(0);
    expect(trace!.choices[0]!.completionTokenIds!.length).toBeGreaterThan(0);
    expect(trace!.choices[0]!.logprobs).toHaveLength(trace!.choices[0]!.completionTokenIds!.length);
  });

  it("records the same text and tokens for a streamed call as for the same call unstreamed", async () => {
    const request = { model: "tiny", messages: [{ role: "user" as const, content: "7*6" }], seed: 11, max_tokens: 10 };
    const whole = await client("same").chat.completions.create(request);
    const stream = await client("same").chat.completions.create({ ...request, stream: true });
    for await (const chunk of stream) void chunk;
    const [plain, streamed] = gateway.traces("same");
    expect(streamed!.choices[0]!.text).toBe(whole.choices[0]!.message.content);
    expect(streamed!.choices[0]!.completionTokenIds).toEqual(plain!.choices[0]!.completionTokenIds);
    expect(streamed!.choices[0]!.logprobs).toEqual(plain!.choices[0]!.logprobs);
    expect(streamed!.promptTokenIds).toEqual(plain!.promptTokenIds);
  });

  it("passes /v1/completions through and records the prompt, its token ids and the sampled tokens' logprobs", async () => {
    const reply = await client("text").completions.create({ model: "tiny", prompt: "12+30=", max_tokens: 6, seed: 2 });
    expect(reply.choices[0]!.logprobs).toBeNull();
    expect(reply.choices[0]).not.toHaveProperty("token_ids");
    const [trace] = gateway.traces("text");
    expect(trace).toMatchObject({ endpoint: "completions", prompt: "12+30=", messages: [] });
    expect(trace!.choices[0]!.text).toBe(reply.choices[0]!.text);
    expect(trace!.choices[0]!.logprobs).toHaveLength(trace!.choices[0]!.completionTokenIds!.length);
    expect(gateway.steps("text")[0]!.completionTokenIds).toEqual(trace!.choices[0]!.completionTokenIds);
  });

  it("passes a streamed /v1/completions through", async () => {
    const stream = await client("text-stream").completions.create({ model: "tiny", prompt: "5+5=", max_tokens: 6, seed: 2, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? "";
    const [trace] = gateway.traces("text-stream");
    expect(trace).toMatchObject({ endpoint: "completions", streamed: true });
    expect(trace!.choices[0]!.text).toBe(text);
    expect(trace!.choices[0]!.completionTokenIds!.length).toBeGreaterThan(0);
  });

  it("appends every trace to the trace file as one valid JSON line", () => {
    const lines = readFileSync(traceFile, "utf8").trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(TraceRecordSchema.safeParse(JSON.parse(line)).success).toBe(true);
  });

  it("refuses a body over 32 MB with an OpenAI-shaped 413, not a connection reset", async () => {
    const { status, body } = await postOversizedBody(`${gateway.sessionUrl("big")}/chat/completions`, GATEWAY_MAX_BODY_BYTES + 1024);
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: 413, type: "invalid_request_error" });
    expect(gateway.traces("big")).toEqual([]);
  });
});
