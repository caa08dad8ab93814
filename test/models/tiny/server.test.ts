import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTinyServer, TINY_SERVER_MAX_BODY_BYTES, type TinyServer } from "../../../src/models/tiny/server.js";
import { postOversizedBody } from "../../helpers/post-oversized-body.js";

let server: TinyServer;
let client: OpenAI;
const question = "What is 12+7*3? Show each step, then give the final answer as \\boxed{n}.";

beforeAll(async () => {
  server = await startTinyServer({ port: 0 });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
});
afterAll(() => server.close());

describe("tiny model server with the openai client", () => {
  it("lists the tiny model", async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(["tiny"]);
  });

  it("returns n choices with logprobs, top logprobs and token ids", async () => {
    const body = { model: "tiny", messages: [{ role: "user" as const, content: question }], n: 3, seed: 4, logprobs: true, top_logprobs: 2, max_tokens: 40, return_token_ids: true };
    const response = (await client.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)) as OpenAI.ChatCompletion & { prompt_token_ids: number[] };
    expect(response.choices).toHaveLength(3);
    expect(response.prompt_token_ids.length).toBe(response.usage!.prompt_tokens);
    for (const choice of response.choices as (OpenAI.ChatCompletion.Choice & { token_ids: number[] })[]) {
      const content = choice.logprobs!.content!;
      expect(content.length).toBe(choice.token_ids.length);
      for (const entry of content) {
        expect(entry.logprob).toBeLessThanOrEqual(0);
        expect(entry.top_logprobs).toHaveLength(2);
        expect(entry.top_logprobs[0]!.logprob).toBeGreaterThanOrEqual(entry.top_logprobs[1]!.logprob);
      }
    }
    const completionTokens = response.choices.reduce((total, choice) => total + (choice as unknown as { token_ids: number[] }).token_ids.length, 0);
    expect(response.usage!.completion_tokens).toBe(completionTokens);
  });

  it("replays the same output for the same seed and request", async () => {
    const request = { model: "tiny", messages: [{ role: "user" as const, content: question }], n: 2, seed: 99, temperature: 1, max_tokens: 40 };
    const first = await client.chat.completions.create(request);
    const second = await client.chat.completions.create(request);
    expect(second.choices.map((choice) => choice.message.content)).toEqual(first.choices.map((choice) => choice.message.content));
  });

  it("stops before a stop sequence and reports finish_reason stop", async () => {
    const open = await client.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: question }], temperature: 0, max_tokens: 40 });
    const text = open.choices[0]!.message.content!;
    expect(text.length).toBeGreaterThan(2);
    const stop = text.slice(2, 3);
    const stopped = await client.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: question }], temperature: 0, max_tokens: 40, stop: [stop] });
    expect(stopped.choices[0]?.message.content).toBe(text.slice(0, text.indexOf(stop)));
    expect(stopped.choices[0]?.finish_reason).toBe("stop");
  });

  it("honours max_tokens with finish_reason length", async () => {
    const response = await client.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: question }], temperature: 0, max_tokens: 3 });
    expect(response.choices[0]?.finish_reason).toBe("length");
    expect(response.usage!.completion_tokens).toBe(3);
  });

  it("streams the same text as a non-streamed call with the same seed", async () => {
    const request = { model: "tiny", messages: [{ role: "user" as const, content: question }], seed: 5, max_tokens: 40 };
    const whole = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true });
    let text = "";
    let finish: string | null = null;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(finish).toBe(whole.choices[0]?.finish_reason);
  });

  it("completes a token-id prompt like the chat endpoint completes its template", async () => {
    const tokenized = (await (await fetch(`${server.url}/tokenize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: question }] }),
    })).json()) as { tokens: number[] };
    const chat = await client.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: question }], temperature: 0, max_tokens: 30 });
    const completion = await client.completions.create({ model: "tiny", prompt: tokenized.tokens, temperature: 0, max_tokens: 30 });
    expect(completion.choices[0]?.text).toBe(chat.choices[0]?.message.content);
  });

  it("continues a text prompt with legacy logprobs and token ids", async () => {
    const body = { model: "tiny", prompt: "<|user|>3+4<|end|><|assistant|>", max_tokens: 12, logprobs: 2, seed: 3, return_token_ids: true };
    const response = await client.completions.create(body as OpenAI.CompletionCreateParamsNonStreaming);
    const choice = response.choices[0] as OpenAI.Completion["choices"][number] & { token_ids: number[]; prompt_token_ids: number[] };
    expect(choice.prompt_token_ids).toHaveLength(6); // <|user|> 3 + 4 <|end|> <|assistant|>
    expect(choice.logprobs!.tokens).toHaveLength(choice.token_ids.length);
    expect(choice.logprobs!.token_logprobs).toHaveLength(choice.token_ids.length);
    expect(Object.keys(choice.logprobs!.top_logprobs![0]!)).toHaveLength(2);
  });

  it("round-trips text through /tokenize and /detokenize", async () => {
    const base = server.url;
    const text = "7*3=21 12+21=33 \\boxed{33}";
    const { tokens } = (await (await fetch(`${base}/tokenize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: text }) })).json()) as { tokens: number[] };
    expect(tokens.length).toBeLessThan(text.length);
    const { prompt } = (await (await fetch(`${base}/detokenize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tokens }) })).json()) as { prompt: string };
    expect(prompt).toBe(text);
  });

  it("answers bad requests with OpenAI-shaped 400/404 errors and keeps serving", async () => {
    const bad = [
      { model: "tiny", messages: [] },
      { model: "tiny", messages: [{ role: "user", content: "hi" }], temperature: 5 },
      { model: "tiny", messages: [{ role: "user", content: "hi" }], n: 0 },
      { model: "tiny", messages: [{ role: "wizard", content: "hi" }] },
      { model: "tiny", messages: [{ role: "user", content: "x".repeat(500) }] },
    ];
    for (const body of bad) {
      const error = await client.chat.completions.create(body as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
    }
    const unknownModel = await client.chat.completions.create({ model: "gpt-9", messages: [{ role: "user", content: "hi" }] }).catch((caught: unknown) => caught);
    expect(unknownModel).toBeInstanceOf(OpenAI.NotFoundError);
    const malformed = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toMatch(/Malformed JSON/);
    const models = await client.models.list();
    expect(models.data).toHaveLength(1);
  });

  it("refuses a body over its limit with an OpenAI-shaped 413 and keeps serving", async () => {
    const { status, body } = await postOversizedBody(`${server.url}/v1/chat/completions`, TINY_SERVER_MAX_BODY_BYTES + 1024);
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: 413, type: "invalid_request_error" });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("answers /health while 8 requests of 16 choices each are generating, before most of them finish", async () => {
    const requests = 8;
    let finished = 0;
    let started = 0;
    let allStarted: () => void = () => {};
    const everyStreamStarted = new Promise<void>((resolve) => (allStarted = resolve));
    const generations = Array.from({ length: requests }, (_, index) =>
      client.chat.completions
        .create({ model: "tiny", messages: [{ role: "user", content: "3+4" }], n: 16, temperature: 1, seed: index, stream: true })
        .then(async (stream) => {
          let first = true;
          for await (const chunk of stream) {
            void chunk;
            if (first && ++started === requests) allStarted();
            first = false;
          }
          finished += 1;
        }),
    );
    // Every request has sent its first chunk, so all of them are in the model now (the choices run one after another).
    await everyStreamStarted;
    const health = await fetch(`${server.url}/health`);
    const finishedAtHealth = finished;
    expect(health.status).toBe(200);
    await Promise.all(generations);
    expect(finishedAtHealth).toBeLessThan(requests / 2);
  });
});
