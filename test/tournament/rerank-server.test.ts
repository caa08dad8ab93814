import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startRerankServer, RERANK_SERVER_MAX_BODY_BYTES } from "../../src/tournament/rerank-server.js";
import { postOversizedBody } from "../helpers/post-oversized-body.js";
import { lastUserText, startScriptedServer } from "../helpers/scripted-openai-server.js";
import { startScriptedJudge } from "./scripted-judge.js";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function rerankServer(upstream: string, n = 4, maxCalls = 256) {
  const server = await startRerankServer({ upstream, model: "scripted", n, budget: 1, maxCalls, method: "v1", judgeKind: "math", port: 0 });
  servers.push(server);
  return server;
}

/** An upstream that knows only the model "scripted" and refuses prompts mentioning "too long" with a 400. */
async function refusingUpstream() {
  const upstream = await startScriptedServer((body) => {
    if (body.model !== "scripted") return { status: 404, errorMessage: `The model \`${body.model}\` does not exist.` };
    if (lastUserText(body).includes("too long")) return { status: 400, errorMessage: "This model's maximum context length is 104 tokens." };
    return { text: "The answer is 42." };
  });
  servers.push(upstream);
  return upstream;
}

async function post(url: string, body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

const question = [{ role: "user", content: "What is 6 times 7?" }];

describe("the rerank server's fidelity to the OpenAI API", () => {
  it("relays an upstream 400 as a 400 with the upstream's message and type, so SDKs do not retry it", async () => {
    const server = await rerankServer((await refusingUpstream()).url);
    const { status, json } = await post(server.url, { model: "scripted", messages: [{ role: "user", content: "a prompt that is too long" }] });
    expect(status).toBe(400);
    expect(json.error.message).toMatch(/maximum context length/);
    expect(json.error.type).toBe("scripted");
  });

  it("answers an unknown model with the upstream's 404, which the OpenAI SDK raises as NotFoundError", async () => {
    const server = await rerankServer((await refusingUpstream()).url);
    const client = new OpenAI({ baseURL: server.url, apiKey: "unused", maxRetries: 0 });
    const error = await client.chat.completions.create({ model: "no-such-model", messages: [{ role: "user", content: "hi" }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toMatch(/no-such-model/);
  });

  it.each([
    [{ logprobs: true }, "logprobs"],
    [{ top_logprobs: 3 }, "top_logprobs"],
    [{ n: 5 }, "n"],
    [{ stream_options: { include_usage: true } }, "stream_options"],
    [{ rerank: { method: "best" } }, "rerank.method"],
    [{ rerank: { max_calls: -1 } }, "rerank.max_calls"],
    [{ rerank: { max_calls: 2.5 } }, "rerank.max_calls"],
    [{ rerank: { budget: 2 } }, "rerank"],
  ])("refuses %j with a 400 whose param names the field", async (extra, field) => {
    const server = await rerankServer((await refusingUpstream()).url);
    const { status, json } = await post(server.url, { model: "scripted", messages: question, ...extra });
    expect(status).toBe(400);
    expect(json.error.param).toBe(field);
    expect(json.error.message).toContain(`"${field}"`);
  });

  it("answers n > 1 with the n best candidates, the tournament's winner first", async () => {
    const upstream = await startScriptedJudge({ judgeAccuracy: 0.9, generationAccuracy: 0.5, seed: 3 });
    servers.push(upstream);
    const server = await rerankServer(upstream.url, 4);
    const { status, json } = await post(server.url, { model: "scripted", messages: question, n: 3 });
    expect(status).toBe(200);
    expect(json.choices).toHaveLength(3);
    expect(json.choices.map((choice: { index: number }) => choice.index)).toEqual([0, 1, 2]);
    const scores: number[] = json.rerank.scores;
    const rest = scores.filter((_, index) => index !== json.rerank.chosenIndex).sort((a, b) => b - a);
    expect(rest.length).toBe(3);
    expect(json.choices[0].message.content).toMatch(/The answer is/);
  });

  it("reranks with the request's own method and judge-call budget", async () => {
    const upstream = await startScriptedJudge({ judgeAccuracy: 0.9, generationAccuracy: 0.5, seed: 3 });
    servers.push(upstream);
    const server = await rerankServer(upstream.url, 6);
    const { status, json } = await post(server.url, { model: "scripted", messages: question, rerank: { method: "adaptive-duel", max_calls: 3 } });
    expect(status).toBe(200);
    expect(json.rerank.method).toBe("adaptive-duel");
    expect(json.rerank.budget).toBe(3);
    expect(json.rerank.judgeCalls).toBeLessThanOrEqual(3);
    // Without the field the server's own method and budget (v1, 1×n) apply.
    const plain = await post(server.url, { model: "scripted", messages: question });
    expect(plain.json.rerank.method).toBe("v1");
    expect(plain.json.rerank.judgeCalls).toBe(6);
  });

  it("spends no more judge calls than a tournament can use on n candidates, however many a request allows", async () => {
    const upstream = await startScriptedJudge({ judgeAccuracy: 0.9, generationAccuracy: 0.5, seed: 3 });
    servers.push(upstream);
    const server = await rerankServer(upstream.url, 4);
    for (const method of ["v1", "adaptive-duel", "pointwise"]) {
      const before = upstream.requests.length;
      const { status, json } = await post(server.url, { model: "scripted", messages: question, rerank: { method, max_calls: 10_000 } });
      expect(status).toBe(200);
      // 4 candidates: 6 pairs, each in both slot orders.
      expect(json.rerank.budget).toBe(12);
      expect(json.rerank.judgeCalls).toBeLessThanOrEqual(12);
      // One generation call, then the judge calls.
      expect(upstream.requests.length - before).toBe(1 + json.rerank.judgeCalls);
    }
  });

  it("cuts a request's judge calls, and its own --budget × n, to the server's --max-calls", async () => {
    const upstream = await startScriptedJudge({ judgeAccuracy: 0.9, generationAccuracy: 0.5, seed: 3 });
    servers.push(upstream);
    const server = await rerankServer(upstream.url, 6, 5);
    const asked = await post(server.url, { model: "scripted", messages: question, rerank: { max_calls: 20 } });
    expect(asked.status).toBe(200);
    expect(asked.json.rerank).toMatchObject({ budget: 5, judgeCalls: 5 });
    const plain = await post(server.url, { model: "scripted", messages: question });
    expect(plain.json.rerank).toMatchObject({ budget: 5, judgeCalls: 5 });
  });

  it("streams a usage chunk before [DONE] when stream_options.include_usage is set", async () => {
    const upstream = await startScriptedJudge({ judgeAccuracy: 0.9, seed: 3 });
    servers.push(upstream);
    const server = await rerankServer(upstream.url, 2);
    const client = new OpenAI({ baseURL: server.url, apiKey: "unused", maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: "scripted", messages: question as never, stream: true, stream_options: { include_usage: true } });
    const usages = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).toHaveLength(1);
    expect(usages[0]!.total_tokens).toBeGreaterThan(0);
  });

  it("refuses a body over its limit with an OpenAI-shaped 413 instead of reading it", async () => {
    const server = await rerankServer((await refusingUpstream()).url);
    const { status, body } = await postOversizedBody(`${server.url}/chat/completions`, RERANK_SERVER_MAX_BODY_BYTES + 1024);
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: 413, type: "invalid_request_error" });
  });

  it("answers /health", async () => {
    const server = await rerankServer((await refusingUpstream()).url);
    const response = await fetch(server.url.replace(/\/v1$/, "/health"));
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
