// A real language model (SmolLM2-135M-Instruct, Q4_1 GGUF) on llama.cpp behind the OpenAI-compatible server: greedy
// answers, logprobs, token ids, n choices, stop strings, and concurrent requests batched in one context giving what
// they give one after another. The model is pulled once into the store (test/helpers/test-model.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LlamaCppModel } from "../../../src/models/llama-cpp/llama-cpp-model.js";
import { startLlamaCppServer, type LlamaCppServer } from "../../../src/models/llama-cpp/llama-cpp-server.js";
import { TEST_MODEL, testModelFile } from "../../helpers/test-model.js";

let server: LlamaCppServer;

beforeAll(async () => {
  // One thread: the test machine is shared, and a thread count over the free cores makes llama.cpp spin.
  server = await startLlamaCppServer({ file: await testModelFile(), name: TEST_MODEL, port: 0, host: "127.0.0.1", threads: 1 });
}, 600_000);

afterAll(async () => server?.close());

interface ChatChoice {
  message: { content: string };
  finish_reason: string;
  token_ids?: number[];
  logprobs?: { content: { token: string; logprob: number; top_logprobs: { token: string; logprob: number }[] }[] } | null;
}

async function post<Reply>(route: string, body: unknown): Promise<Reply> {
  const response = await fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Reply;
}

const chat = (body: Record<string, unknown>) => post<{ choices: ChatChoice[]; prompt_token_ids?: number[] }>("/v1/chat/completions", { model: TEST_MODEL, ...body });
// With the GGUF's own default system prompt ("You are a helpful AI assistant named SmolLM…") the Q4_1 model's greedy
// answer is about "L'Étoile" (its first token beats "The" by 0.24 nats); with a plain system prompt it names Paris.
const capital = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "What is the capital of France?" },
];

describe("llama.cpp model server", () => {
  it("answers a fixed prompt greedily and stably", async () => {
    const first = await chat({ messages: capital, temperature: 0, max_tokens: 16 });
    const second = await chat({ messages: capital, temperature: 0, max_tokens: 16 });
    expect(first.choices[0]!.message.content).toContain("Paris");
    expect(second.choices[0]!.message.content).toBe(first.choices[0]!.message.content);
  }, 300_000);

  it("reports logprobs whose greedy token is the most likely one, and token ids that decode to the text", async () => {
    const reply = await chat({ messages: capital, temperature: 0, max_tokens: 16, logprobs: true, top_logprobs: 3, return_token_ids: true });
    const choice = reply.choices[0]!;
    const content = choice.logprobs!.content;
    expect(content).toHaveLength(choice.token_ids!.length);
    for (const position of content) {
      expect(position.top_logprobs).toHaveLength(3);
      expect(position.logprob).toBeLessThanOrEqual(0);
      expect(position.token).toBe(position.top_logprobs[0]!.token);
      expect(position.logprob).toBe(position.top_logprobs[0]!.logprob);
      expect(position.logprob).toBeGreaterThanOrEqual(position.top_logprobs[1]!.logprob);
    }
    // The end-of-turn token stays in token_ids (finish_reason stop); the text is the ids before it.
    const ids = choice.finish_reason === "stop" ? choice.token_ids!.slice(0, -1) : choice.token_ids!;
    const decoded = await post<{ prompt: string }>("/detokenize", { tokens: ids });
    expect(decoded.prompt).toBe(choice.message.content);
    expect(reply.prompt_token_ids!.length).toBeGreaterThan(10);
  }, 300_000);

  it("reports the sampled token's logprob at temperature 1, the same for the same seed", async () => {
    const body = { messages: capital, temperature: 1, max_tokens: 8, logprobs: true, seed: 7, return_token_ids: true };
    const [first, again] = [await chat(body), await chat(body)];
    expect(again.choices[0]!.token_ids).toEqual(first.choices[0]!.token_ids);
    const logprobs = first.choices[0]!.logprobs!.content.map((position) => position.logprob);
    expect(logprobs).toHaveLength(first.choices[0]!.token_ids!.length);
    expect(logprobs.every((logprob) => logprob < 0 && Number.isFinite(logprob))).toBe(true);
  }, 300_000);

  it("samples n: 2 choices, each its own", async () => {
    const reply = await chat({ messages: capital, temperature: 1, max_tokens: 12, n: 2, seed: 3, return_token_ids: true });
    expect(reply.choices).toHaveLength(2);
    expect(reply.choices[0]!.token_ids).not.toEqual(reply.choices[1]!.token_ids);
  }, 300_000);

  it("stops the text before a stop string", async () => {
    const reply = await chat({ messages: capital, temperature: 0, max_tokens: 16, stop: ["Paris"] });
    expect(reply.choices[0]!.finish_reason).toBe("stop");
    expect(reply.choices[0]!.message.content).not.toContain("Paris");
    expect(reply.choices[0]!.message.content.length).toBeGreaterThan(0);
  }, 300_000);

  it("gives concurrent greedy requests the output they give one after another", async () => {
    const prompts = ["What is 12 + 7?", "Name a colour of the sky."].map((content) => ({ messages: [{ role: "user", content }], temperature: 0, max_tokens: 20, return_token_ids: true }));
    const sequential = [];
    for (const body of prompts) sequential.push(await chat(body));
    const concurrent = await Promise.all(prompts.map((body) => chat(body)));
    expect(concurrent.map((reply) => reply.choices[0]!.token_ids)).toEqual(sequential.map((reply) => reply.choices[0]!.token_ids));
    expect(concurrent.map((reply) => reply.choices[0]!.message.content)).toEqual(sequential.map((reply) => reply.choices[0]!.message.content));
  }, 300_000);

  it("releases the loaded model when the server cannot listen (a port in use)", async () => {
    const load = vi.spyOn(LlamaCppModel, "load");
    try {
      const port = Number(new URL(server.url).port);
      await expect(startLlamaCppServer({ file: await testModelFile(), name: TEST_MODEL, port, host: "127.0.0.1", threads: 1 })).rejects.toThrow(/is already in use/);
      const loaded = await load.mock.results[0]!.value;
      expect(loaded.model.disposed).toBe(true);
    } finally {
      load.mockRestore();
    }
  }, 600_000);
});
