/** The Tinker client against the local Tinker server on 127.0.0.1: futures, retries, seq_id order, limits, auth, heartbeats, resume. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LossConfigSchema, OptimizerConfigSchema, type TrainBatch, type TrainingBackend } from "../../../../src/training/backend.js";
import { awaitFuture, submitJson, type PollCounts } from "../../../../src/llm/tinker/future-poller.js";
import { createTinkerBackend } from "../../../../src/training/backends/tinker/tinker-backend.js";
import { TinkerAuthError, TinkerFutureError, TinkerHttpError } from "../../../../src/llm/tinker/tinker-errors.js";
import { TinkerHttpClient } from "../../../../src/llm/tinker/tinker-http-client.js";
import { openSession } from "../../../../src/llm/tinker/tinker-session.js";
import { openTinkerPolicy } from "../../../../src/llm/tinker/open-tinker-policy.js";
import { tinyChatRenderer } from "../../../../src/llm/tinker/tiny-chat-renderer.js";
import { encodeForwardBackwardRequest } from "../../../../src/llm/tinker/tinker-proto.js";
import { startLocalTinkerServer, type LocalTinkerServer } from "../../../../src/tinker-server/local-tinker-server.js";
import { pinnedModelName } from "../../../../src/training/backends/pinned-model-name.js";
import { parseFaultPlan, type FaultPlan } from "../../../../src/tinker-server/server-faults.js";

const noWait = { initialMs: 0, maxMs: 0, maxRetries: 10 };
const instantPoll = { initialMs: 0, maxMs: 0 };
let server: LocalTinkerServer;
let faults: FaultPlan;
const client = (key = "tml-test") => new TinkerHttpClient({ baseUrl: server.url, credentials: () => key, retry: noWait, notify: () => {} });
const counts = (): PollCounts => ({ polls: 0, tryAgain: 0, timeouts: 0, resubmits: 0 });

beforeAll(async () => {
  // The test mutates this plan between cases: the server spends faults from the very object it was given.
  faults = parseFaultPlan("");
  server = await startLocalTinkerServer({ maxChunkDatums: 2, parallelChunks: true, faults, longPollMs: 50 });
});
afterAll(async () => {
  await server.close();
});

async function createModel(http: TinkerHttpClient, tally: PollCounts): Promise<string> {
  const session = await openSession(http, { notify: () => {} });
  session.close();
  const reply = await awaitFuture(http, () => submitJson(http, "create_model", { session_id: session.id, model_seq_id: 0, base_model: "rllm/tiny", lora_config: { rank: 8 } }), { poll: instantPoll, counts: tally });
  return (reply.json as { model_id: string }).model_id;
}

describe("futures", () => {
  it("polls through try_again k times and 408 k times to the result", async () => {
    Object.assign(faults, { try_again: 3, timeouts: 2 });
    const tally = counts();
    expect(await createModel(client(), tally)).toMatch(/:train:0$/);
    Object.assign(faults, { try_again: 0, timeouts: 0 });
    expect(tally).toMatchObject({ tryAgain: 3, timeouts: 2 });
  });

  it("resubmits a lost future (410) once, and fails when it is lost again", async () => {
    faults.lost = 1;
    const tally = counts();
    await createModel(client(), tally);
    expect(tally.resubmits).toBe(1);
    faults.lost = 2;
    await expect(createModel(client(), counts())).rejects.toThrow(/lost again after one resubmission/);
    faults.lost = 0;
  });

  it.each(["unknown", "server", "user"] as const)("fails with the %s error category", async (category) => {
    Object.assign(faults, { error: category, errors: 1 });
    const failure = await createModel(client(), counts()).catch((error: unknown) => error);
    faults.error = undefined;
    expect(failure).toBeInstanceOf(TinkerFutureError);
    expect((failure as TinkerFutureError).category).toBe(category);
  });
});

describe("retries", () => {
  it("retries 429 and 503, then succeeds", async () => {
    Object.assign(faults, { rate_limit: 2, unavailable: 1 });
    const before = server.stats.requests;
    const reply = await client().request("get_server_capabilities", undefined, { method: "GET" });
    expect(reply.status).toBe(200);
    expect(server.stats.requests - before).toBe(4);
  });

  it("never retries a 404 or a 400", async () => {
    const before = server.stats.requests;
    await expect(client().request("get_info", { json: { model_id: "nope" } })).rejects.toMatchObject({ status: 404, attempts: 1 });
    await expect(client().request("create_session", { json: {} })).rejects.toBeInstanceOf(TinkerHttpError);
    expect(server.stats.requests - before).toBe(2);
  });

  it("answers a refused key with a 401 that says to check TINKER_API_KEY, sent once", async () => {
    const before = server.stats.requests;
    const failure = await client("not-a-key").request("create_session", { json: { type: "create_session" } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TinkerAuthError);
    expect((failure as Error).message).toMatch(/check TINKER_API_KEY/);
    expect(server.stats.requests - before).toBe(1);
  });
});

describe("sessions", () => {
  it("counts heartbeats, and warns once when none has got through for 120 s", async () => {
    let now = 0;
    const notices: string[] = [];
    const session = await openSession(client(), { notify: (message) => notices.push(message), now: () => now });
    session.close();
    const before = server.stats.heartbeats;
    await session.beat();
    expect(server.stats.heartbeats - before).toBe(1);
    // Every attempt of the next beats is answered 503 (11 = the first try and 10 retries), 70 s apart.
    for (let beat = 0; beat < 3; beat++) {
      faults.unavailable = 11;
      now += 70_000;
      await session.beat();
    }
    faults.unavailable = 0;
    expect(session.beats).toEqual({ ok: 1, failed: 3 });
    expect(notices.filter((notice) => notice.includes("no heartbeat has reached the service for 140 s"))).toHaveLength(1);
  });
});

const batch = (size: number): TrainBatch => ({
  sequences: Array.from({ length: size }, (_, index) => ({
    tokens: [2, 40, 41, 42, 4, 3, 50 + index, 51, 4],
    lossMask: [0, 0, 0, 0, 0, 0, 1, 1, 1],
    samplerLogprobs: [0, 0, 0, 0, 0, 0, -2, -2, -1],
    advantage: index % 2 === 0 ? 1 : -1,
  })),
  loss: LossConfigSchema.parse({ kind: "importance_sampling" }),
  lossAggregation: "token-mean",
  merge: "prefix",
  optimizer: OptimizerConfigSchema.parse({ learningRate: 1e-3 }),
  substeps: 1,
});

async function finished(backend: TrainingBackend, stepId: string) {
  for (;;) {
    const status = await backend.status(stepId);
    if (status.state !== "running") return status;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("training through the backend", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "tinker-resume-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("splits a batch at the config's chunk limit and the server applies the parallel chunks in seq_id order", async () => {
    const backend = createTinkerBackend({ client: client(), loadRenderer: async () => tinyChatRenderer, poll: instantPoll });
    await backend.open({ baseModel: "rllm/tiny" });
    const sizesBefore = server.stats.chunkSizes.length;
    const status = await finished(backend, (await backend.submit(batch(5))).stepId);
    expect(status.state).toBe("done");
    expect(status.metrics.requests).toBe(4);
    expect(server.stats.chunkSizes.slice(sizesBefore).sort()).toEqual([1, 2, 2]);
    const orders = [...server.stats.forwardBackwardOrder.values()];
    expect(orders.at(-1)).toEqual([1, 2, 3]);
    await backend.close();
  });

  it("refuses a request over the datum limit and a reused seq_id", async () => {
    const http = client();
    const modelId = await createModel(http, counts());
    const datum = { modelInput: [2, 3], lossFnInputs: { target_tokens: { dtype: "int64" as const, values: [3, 4] }, weights: { dtype: "float32" as const, values: [1, 1] } } };
    const send = (data: (typeof datum)[], seqId: number) => http.request("forward_backward", { proto: encodeForwardBackwardRequest({ modelId, seqId, data, lossFn: "cross_entropy" }) });
    await expect(send([datum, datum, datum], 1)).rejects.toMatchObject({ status: 400 });
    // seq 2 arrives before seq 1 and still runs after it.
    const second = await send([datum], 2);
    const first = await send([datum], 1);
    for (const reply of [first, second]) await awaitFuture(http, async () => (reply.json as { request_id: string }).request_id, { poll: instantPoll });
    expect(server.stats.forwardBackwardOrder.get(modelId)).toEqual([1, 2]);
    await expect(send([datum], 2)).rejects.toThrow(/already used/);
  });

  it("serves agent flows an OpenAI chat completion with the sampler's token ids and logprobs", async () => {
    const backend = createTinkerBackend({ client: client(), loadRenderer: async () => tinyChatRenderer, poll: instantPoll });
    const policy = await backend.open({ baseModel: "rllm/tiny" });
    const response = await fetch(`${policy.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "What is 12+7? Put the answer in \\boxed{}." }], n: 2, logprobs: true, max_tokens: 16, seed: 3 }),
    });
    const reply = (await response.json()) as {
      prompt_token_ids: number[];
      choices: { message: { content: string }; token_ids: number[]; logprobs: { content: { logprob: number }[] } }[];
    };
    await backend.close();
    expect(reply.prompt_token_ids).toEqual(tinyChatRenderer.render([{ role: "user", content: "What is 12+7? Put the answer in \\boxed{}." }]));
    expect(reply.choices).toHaveLength(2);
    for (const choice of reply.choices) {
      expect(choice.logprobs.content).toHaveLength(choice.token_ids.length);
      expect(choice.message.content).toBe(tinyChatRenderer.decode(choice.token_ids));
    }
  });

  it("keeps each version's sampling session for episodes pinned to it (async rollouts) until it is no longer retained", async () => {
    const backend = createTinkerBackend({ client: client(), loadRenderer: async () => tinyChatRenderer, poll: instantPoll });
    const start = await backend.open({ baseModel: "rllm/tiny" });
    const ask = async (model: string) => {
      const response = await fetch(`${start.openaiBaseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "What is 2+2?" }], logprobs: true, max_tokens: 6, seed: 5 }),
      });
      return { status: response.status, body: (await response.json()) as { weight_version?: number; choices?: { token_ids: number[]; logprobs: { content: { logprob: number }[] } }[] } };
    };
    const before = await ask("rllm/tiny");
    await finished(backend, (await backend.submit({ ...batch(4), optimizer: OptimizerConfigSchema.parse({ learningRate: 0.05 }) })).stepId);
    const published = await backend.publish();
    const newest = await ask("rllm/tiny");
    const pinned = await ask(pinnedModelName("rllm/tiny", 0));
    expect([before.body.weight_version, newest.body.weight_version, pinned.body.weight_version]).toEqual([0, published.version, 0]);
    // Version 0's session samples what it sampled before the update; the new weights give other logprobs.
    expect(pinned.body.choices).toEqual(before.body.choices);
    expect(newest.body.choices![0]!.logprobs.content[0]!.logprob).not.toBe(before.body.choices![0]!.logprobs.content[0]!.logprob);
    await backend.retainVersions!([]);
    const gone = await ask(pinnedModelName("rllm/tiny", 0));
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.body)).toMatch(/Policy version 0 is no longer served/);
    await backend.close();
  });

  it("resumes from the tinker:// paths recorded in a checkpoint directory", async () => {
    const first = createTinkerBackend({ client: client(), loadRenderer: async () => tinyChatRenderer, poll: instantPoll });
    await first.open({ baseModel: "rllm/tiny" });
    await finished(first, (await first.submit(batch(4))).stepId);
    const published = await first.publish();
    const request = { policy: published, promptTokenIds: [2, 40, 41, 4, 3], n: 2, maxTokens: 8, temperature: 1, seed: 7 };
    const before = await first.sample(request);
    await first.checkpoint(path.join(directory, "step-0001"));
    await first.close();

    const second = createTinkerBackend({ client: client(), loadRenderer: async () => tinyChatRenderer, poll: instantPoll });
    await second.open({ baseModel: "rllm/tiny" });
    const restored = await second.restore(path.join(directory, "step-0001"));
    expect(restored.version).toBe(1);
    expect(restored.samplerPath).toMatch(/^tinker:\/\//);
    expect(await second.sample({ ...request, policy: restored })).toEqual(before);
    await second.close();

    // rllm eval --backend tinker --model tinker://…: sampling only, on the saved sampler path.
    const endpoint = await openTinkerPolicy({ client: client(), model: published.samplerPath!, loadRenderer: async () => tinyChatRenderer, notify: () => {} });
    const response = await fetch(`${endpoint.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "What is 2+2?" }], max_tokens: 8, seed: 1 }),
    });
    await endpoint.close();
    expect(((await response.json()) as { choices: unknown[] }).choices).toHaveLength(1);
  });
});
