// Replies in the shapes OpenAI and vLLM document (test/fixtures/llm/README.md says where each comes from), read by the
// client's reply schema and turned into Steps: the fields the project uses must come out right.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ModelError } from "../../src/core/errors/model-error.js";
import type { ChatResponse } from "../../src/core/llm-client.js";
import { ChatReplySchema } from "../../src/llm/chat-reply.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { stepFromChat } from "../../src/llm/step-from-chat.js";

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/llm/${name}`, import.meta.url), "utf8"));

interface RawReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A 127.0.0.1 server that answers its requests with `replies` in order, byte for byte; it records the request bodies. */
async function replay(replies: RawReply[]) {
  const requests: Record<string, unknown>[] = [];
  server = http.createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    requests.push(JSON.parse(body));
    const reply = replies[requests.length - 1] ?? { status: 500, body: { error: { message: "no more replies" } } };
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const sleeps: number[] = [];
  const client = createOpenAiClient({ baseUrl, model: "m", random: () => 0.5, sleep: async (milliseconds) => void sleeps.push(milliseconds) });
  return { client, requests, sleeps };
}

const ask = { messages: [{ role: "user" as const, content: "2+2=?" }] };

async function responseTo(name: string): Promise<ChatResponse> {
  const { client } = await replay([{ status: 200, body: fixture(name) }]);
  return client.chat(ask);
}

describe("recorded OpenAI replies", () => {
  it("a plain reply gives its text, finish reason and usage, and no token ids", async () => {
    expect(ChatReplySchema.safeParse(fixture("openai-chat-plain.json")).success).toBe(true);
    const response = await responseTo("openai-chat-plain.json");
    expect(response).toMatchObject({ model: "gpt-4.1-2025-04-14", usage: { promptTokens: 19, completionTokens: 17 }, promptTokenIds: undefined });
    const step = stepFromChat(ask, response);
    expect(step).toMatchObject({ output: "2 + 2 = 4, so the answer is \\boxed{4}.", finishReason: "stop", toolCalls: [], completionTokenIds: undefined, logprobs: undefined });
    expect(step.usage).toEqual({ promptTokens: 19, completionTokens: 17 });
  });

  it("a tool-call reply gives the call's id, name and JSON arguments, and empty text for its null content", async () => {
    const step = stepFromChat(ask, await responseTo("openai-chat-tool-call.json"));
    expect(step.output).toBe("");
    expect(step.finishReason).toBe("tool_calls");
    expect(step.toolCalls).toEqual([
      { id: "call_abc123", type: "function", function: { name: "sql_query", arguments: '{\n"query": "SELECT revenue FROM fy2016_page_23 WHERE year = 2016"\n}' } },
    ]);
    expect(JSON.parse(step.toolCalls[0]!.function.arguments)).toEqual({ query: "SELECT revenue FROM fy2016_page_23 WHERE year = 2016" });
  });

  it("a reply with logprobs gives one logprob per sampled token, in order", async () => {
    const step = stepFromChat(ask, await responseTo("openai-chat-logprobs.json"));
    expect(step.logprobs).toEqual([-0.31725305, -0.02380986, -0.000054669687, -0.015669094, 0, -0.13844608, -3.1281633e-7, -0.0000017432603, -0.0000071062755]);
    expect(step.completionTokenIds).toBeUndefined();
    expect(step.usage.completionTokens).toBe(9);
  });
});

describe("a recorded vLLM reply with return_token_ids", () => {
  it("gives the prompt's token ids, and each choice's token ids and logprobs, choices in index order", async () => {
    const raw = fixture("vllm-chat-token-ids.json");
    expect(ChatReplySchema.parse(raw).prompt_token_ids).toHaveLength(13);
    const { client, requests } = await replay([{ status: 200, body: raw }]);
    const response = await client.chat({ ...ask, n: 2 });
    // The client asked for what this reply carries.
    expect(requests[0]).toMatchObject({ n: 2, logprobs: true, return_token_ids: true });
    expect(response.choices.map((choice) => choice.text)).toEqual(["4", "5"]);
    const first = stepFromChat(ask, response, 0);
    const second = stepFromChat(ask, response, 1);
    expect(first.promptTokenIds).toEqual([151644, 872, 198, 17, 10, 17, 28, 30, 151645, 198, 151644, 77091, 198]);
    expect(first).toMatchObject({ completionTokenIds: [19, 151645], logprobs: [-0.1043, -0.0002], finishReason: "stop" });
    expect(second).toMatchObject({ completionTokenIds: [20, 151645], logprobs: [-2.3125, -0.0009] });
    // Completion tokens are counted from the choice's own ids; the prompt's are shared between the two choices.
    expect(first.usage).toEqual({ promptTokens: 7, completionTokens: 2 });
    expect(first.logprobs).toHaveLength(first.completionTokenIds!.length);
  });
});

describe("recorded error bodies", () => {
  it("a 429 with OpenAI's rate-limit body is retried after its Retry-After, then the reply is used", async () => {
    const { client, requests, sleeps } = await replay([
      { status: 429, body: fixture("openai-error-429.json"), headers: { "retry-after": "20" } },
      { status: 200, body: fixture("openai-chat-plain.json") },
    ]);
    expect((await client.chat(ask)).choices[0]!.finishReason).toBe("stop");
    expect(requests).toHaveLength(2);
    expect(sleeps).toEqual([20_025]);
  });

  it.each(["openai-error-400-context-length.json", "vllm-error-400.json"])("a 400 like %s is a model error carrying the server's message, never retried", async (name) => {
    const body = fixture(name) as { error: { message: string } };
    const { client, requests } = await replay([{ status: 400, body }]);
    const failure = client.chat(ask);
    await expect(failure).rejects.toBeInstanceOf(ModelError);
    await expect(failure).rejects.toThrow(body.error.message);
    expect(requests).toHaveLength(1);
  });

  it("OpenAI's 400 for an unrecognised return_token_ids makes the client stop asking for it, and the call succeeds", async () => {
    const { client, requests } = await replay([
      { status: 400, body: fixture("openai-error-400-unrecognized-argument.json") },
      { status: 200, body: fixture("openai-chat-plain.json") },
    ]);
    await client.chat(ask);
    expect(requests.map((request) => request.return_token_ids)).toEqual([true, undefined]);
  });
});
