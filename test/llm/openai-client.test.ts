import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { EndpointConfigurationError } from "../../src/core/errors/endpoint-configuration-error.js";
import { InfraError } from "../../src/core/errors/infra-error.js";
import { ModelError } from "../../src/core/errors/model-error.js";
import { RetryBudget } from "../../src/llm/retry-policy.js";
import { startScriptedServer, type Script, type ScriptedServer } from "../helpers/scripted-openai-server.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sleeps: number[] = [];
const recordSleep = async (milliseconds: number) => {
  sleeps.push(milliseconds);
};

async function clientFor(script: Script, options: Partial<Parameters<typeof createOpenAiClient>[0]> = {}) {
  server = await startScriptedServer(script);
  sleeps.length = 0;
  return createOpenAiClient({ baseUrl: server.url, model: "m", sleep: recordSleep, random: () => 0.5, ...options });
}

const ask = { messages: [{ role: "user" as const, content: "2+2?" }] };

describe("createOpenAiClient", () => {
  it("asks for logprobs and token ids and keeps them on the choice", async () => {
    const client = await clientFor(() => ({ text: "4" }));
    const response = await client.chat(ask);
    expect(server!.requests[0]!.body.logprobs).toBe(true);
    expect(server!.requests[0]!.body.return_token_ids).toBe(true);
    expect(response.choices[0]!.completionTokenIds).toEqual([52]);
    expect(response.choices[0]!.logprobs).toEqual([-0.5]);
    expect(response.promptTokenIds?.length).toBeGreaterThan(0);
    expect(response.usage.completionTokens).toBe(1);
  });

  it("waits as long as Retry-After says on 429, then succeeds", async () => {
    const client = await clientFor((_, call) => (call < 2 ? { status: 429, headers: { "retry-after": "3" } } : { text: "ok" }));
    const response = await client.chat(ask);
    expect(response.choices[0]!.text).toBe("ok");
    expect(server!.requests).toHaveLength(3);
    expect(sleeps.every((delay) => delay >= 3000 && delay < 3100)).toBe(true);
  });

  it("retries 500, 408, 409 and connection resets with growing backoff", async () => {
    const failures = [{ status: 500 }, { status: 408 }, { status: 409 }, { reset: true }];
    const client = await clientFor((_, call) => failures[call] ?? { text: "ok" });
    await client.chat(ask);
    expect(server!.requests).toHaveLength(5);
    expect(sleeps).toEqual([375, 750, 1500, 3000]);
  });

  it.each([400, 422])("never retries %i and calls it a model error", async (status) => {
    const client = await clientFor(() => ({ status }));
    await expect(client.chat(ask)).rejects.toBeInstanceOf(ModelError);
    expect(server!.requests).toHaveLength(1);
  });

  it.each([401, 403, 404])("never retries %i and flags the endpoint configuration", async (status) => {
    const client = await clientFor(() => ({ status }));
    await expect(client.chat(ask)).rejects.toBeInstanceOf(EndpointConfigurationError);
    expect(server!.requests).toHaveLength(1);
  });

  it("gives up with an infra error after the per-request retry limit", async () => {
    const client = await clientFor(() => ({ status: 503 }), { retryPolicy: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 } });
    await expect(client.chat(ask)).rejects.toThrow(/gave up after 3 attempts/);
    expect(server!.requests).toHaveLength(3);
  });

  it("stops retrying when the run's retry budget is spent", async () => {
    const budget = new RetryBudget(1);
    const client = await clientFor(() => ({ status: 500 }), { retryBudget: budget });
    await expect(client.chat(ask)).rejects.toBeInstanceOf(InfraError);
    await expect(client.chat(ask)).rejects.toBeInstanceOf(InfraError);
    // 2 attempts for the first call (one retry), 1 for the second (budget spent).
    expect(server!.requests).toHaveLength(3);
    expect(budget.spent).toBe(1);
  });

  it("stops asking for return_token_ids when the server rejects that field, and keeps going", async () => {
    const client = await clientFor((body) =>
      body.return_token_ids ? { status: 400, errorMessage: "Unrecognized request argument supplied: return_token_ids" } : { text: "fine" },
    );
    expect((await client.chat(ask)).choices[0]!.text).toBe("fine");
    await client.chat(ask);
    expect(server!.requests.map((request) => request.body.return_token_ids)).toEqual([true, undefined, undefined]);
    expect(server!.requests.every((request) => request.body.logprobs === true)).toBe(true);
  });

  it("sends multimodal content blocks and tools unchanged", async () => {
    const client = await clientFor(() => ({ text: "", toolCalls: [{ id: "c1", name: "calculator", arguments: '{"expression":"1+1"}' }] }));
    const tools = [{ type: "function" as const, function: { name: "calculator", parameters: { type: "object" } } }];
    const content = [
      { type: "text" as const, text: "What is shown?" },
      { type: "image_url" as const, image_url: { url: "data:image/png;base64,AAAA" } },
    ];
    const response = await client.chat({ messages: [{ role: "user", content }], tools });
    expect(server!.requests[0]!.body.messages[0].content).toEqual(content);
    expect(server!.requests[0]!.body.tools).toEqual(tools);
    expect(response.choices[0]!.toolCalls[0]!.function.name).toBe("calculator");
  });
});
