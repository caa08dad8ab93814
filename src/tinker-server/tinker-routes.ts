/**
 * The local Tinker server's routes under /api/v1: JSON bodies validated with zod, forward_backward in protobuf (or in
 * Tinker 0.23's JSON, with forward-only calls on /forward, as the Fireworks gateway takes them).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { decodePathSegment } from "../http/decode-path-segment.js";
import { HttpError } from "../http/http-error.js";
import { parseRequest } from "../http/parse-request.js";
import { readJsonBody } from "../http/read-json-body.js";
import { sendJson } from "../http/send-json.js";
import { requestPath } from "../http/start-http-server.js";
import { decodeForwardBackwardRequest, encodeForwardBackwardOutput, encodeSampleResponse, type DecodedForwardBackwardRequest } from "../llm/tinker/tinker-proto.js";
import { decompressZstdBody } from "./decompress-zstd-body.js";
import { FutureFailure } from "./future-table.js";
import { decodeJsonForwardBackward, JsonForwardBackwardSchema, JsonForwardSchema } from "./json-forward-backward.js";
import type { ServerState } from "./server-state.js";
import { SequenceQueue } from "./sequence-queue.js";

type Route = (state: ServerState, request: IncomingMessage, response: ServerResponse) => Promise<void>;

const MAX_JSON_BYTES = 10_000_000;
const json = async <Schema extends z.ZodType>(request: IncomingMessage, schema: Schema) => parseRequest(schema, await readJsonBody(request, MAX_JSON_BYTES));

function model(state: ServerState, modelId: string) {
  const found = state.models.get(modelId);
  if (!found) throw new HttpError(404, `unknown model_id "${modelId}"`, "not_found_error", "model_id");
  return found;
}

function queued(state: ServerState, modelId: string, seqId: number) {
  const { queue } = model(state, modelId);
  const refusal = queue.refusal(seqId);
  if (refusal) throw new HttpError(400, `model ${modelId}: ${refusal}`, "invalid_request_error", "seq_id");
  return { queue, seqId };
}

async function readBytes(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      request.resume();
      throw new HttpError(413, `request body over ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The decoded ForwardBackwardRequest; bytes that do not decode (a bad tag or wire type, a length past the end, an
 * overlong varint, groups nested past protobufjs's depth limit, a string that is not UTF-8, a chunk or tensor the
 * decoder does not take) are the client's error, a 400 with the decoder's reason, never a 500.
 */
function decodeProtobufBody(bytes: Uint8Array): DecodedForwardBackwardRequest {
  try {
    return decodeForwardBackwardRequest(bytes);
  } catch (error) {
    throw new HttpError(400, `malformed ForwardBackwardRequest: ${(error as Error).message}`, "invalid_request_error");
  }
}

/** Queues one decoded forward_backward (or forward) on its model in seq_id order and answers its future. */
function runForwardBackward(state: ServerState, decoded: DecodedForwardBackwardRequest, response: ServerResponse): void {
  const { maxChunkDatums } = state.options;
  if (decoded.data.length > maxChunkDatums) {
    throw new HttpError(400, `forward_backward with ${decoded.data.length} datums; the limit is ${maxChunkDatums} per request`, "invalid_request_error", "data");
  }
  const target = model(state, decoded.modelId);
  const slot = queued(state, decoded.modelId, decoded.seqId);
  state.stats.chunkSizes.push(decoded.data.length);
  if (decoded.forwardOnly) state.stats.forwardOnlyRequests += 1;
  else state.stats.lastTrainingRequest = decoded;
  state.startFuture(
    response,
    async () => {
      const order = state.stats.forwardBackwardOrder.get(decoded.modelId) ?? [];
      order.push(decoded.seqId);
      state.stats.forwardBackwardOrder.set(decoded.modelId, order);
      const output = await target.learner.forwardBackward(decoded);
      return { proto: encodeForwardBackwardOutput(output), json: { loss_fn_output_type: output.lossFnOutputType, loss_fn_outputs: output.outputs.map((entry) => Object.fromEntries(Object.entries(entry).map(([name, data]) => [name, { data, dtype: "float32" }]))), metrics: output.metrics } };
    },
    slot,
  );
}

// tinker's LoraConfig: which parts get adapters (unembed is not trained here: see docs/tinker.md).
const LoraConfigSchema = z
  .object({ rank: z.number().int().positive(), seed: z.number().int().nullish(), train_attn: z.boolean().default(true), train_mlp: z.boolean().default(true) })
  .passthrough();

function checkBaseModel(state: ServerState, name: string): void {
  if (name !== state.base.name) throw new HttpError(400, `unknown base model "${name}"; supported: ${state.base.name}`, "invalid_request_error", "base_model");
}

const AdamSchema = z.object({
  learning_rate: z.number().positive(),
  beta1: z.number().default(0.9),
  beta2: z.number().default(0.95),
  eps: z.number().default(1e-12),
  weight_decay: z.number().default(0),
  grad_clip_norm: z.number().default(0),
});

const SampleSchema = z.object({
  sampling_session_id: z.string(),
  seq_id: z.number().int(),
  num_samples: z.number().int().positive().default(1),
  prompt_logprobs: z.boolean().nullish(),
  prompt_logprobs_last_n: z.number().int().positive().nullish(),
  topk_prompt_logprobs: z.number().int().default(0),
  topk_sample_logprobs: z.number().int().default(0),
  prompt_alt_tokens_k: z.number().int().default(0),
  target_prompt_logprobs: z.unknown().optional(),
  prompt: z.object({ chunks: z.array(z.object({ type: z.literal("encoded_text"), tokens: z.array(z.number().int()) })) }),
  sampling_params: z.object({
    max_tokens: z.number().int().positive().nullish(),
    seed: z.number().int().nullish(),
    stop: z.union([z.string(), z.array(z.string()), z.array(z.number().int())]).nullish(),
    temperature: z.number().min(0).default(1),
    top_p: z.number().gt(0).max(1).default(1),
    top_k: z.number().int().default(-1),
  }),
});

/** Routes by path below /api/v1/. */
export const tinkerRoutes: Record<string, Route> = {
  get_server_capabilities: async (state, _request, response) => {
    sendJson(response, 200, { supported_models: [{ model_name: state.base.name, max_context_length: state.base.contextLength }] });
  },

  "client/config": async (state, request, response) => {
    request.resume();
    const { options } = state;
    sendJson(response, 200, {
      proto_compress_fwdbwd: options.compress,
      fwdbwd_max_chunk_len: options.maxChunkDatums,
      fwdbwd_max_chunk_bytes_count: options.maxChunkBytes,
      parallel_fwdbwd_chunks: options.parallelChunks,
      sample_max_concurrent_requests: 2000,
    });
  },

  create_session: async (state, request, response) => {
    await json(request, z.object({ type: z.literal("create_session") }).passthrough());
    const sessionId = `session-${state.sessions.size + 1}`;
    state.sessions.add(sessionId);
    sendJson(response, 200, { session_id: sessionId });
  },

  session_heartbeat: async (state, request, response) => {
    const body = await json(request, z.object({ session_id: z.string() }));
    if (!state.sessions.has(body.session_id)) throw new HttpError(404, `unknown session "${body.session_id}"`, "not_found_error", "session_id");
    state.stats.heartbeats += 1;
    sendJson(response, 200, {});
  },

  create_model: async (state, request, response) => {
    const body = await json(request, z.object({ session_id: z.string(), model_seq_id: z.number().int(), base_model: z.string(), lora_config: LoraConfigSchema }));
    if (!state.sessions.has(body.session_id)) throw new HttpError(404, `unknown session "${body.session_id}"`, "not_found_error", "session_id");
    checkBaseModel(state, body.base_model);
    const modelId = `${body.session_id}:train:${body.model_seq_id}`;
    const lora = body.lora_config;
    state.startFuture(response, async () => {
      const learner = await state.base.createLearner({ rank: lora.rank, seed: lora.seed ?? 0, trainAttention: lora.train_attn, trainMlp: lora.train_mlp });
      state.models.set(modelId, { learner, queue: new SequenceQueue(), rank: lora.rank });
      return { json: { model_id: modelId } };
    });
  },

  get_info: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string() }));
    const found = model(state, body.model_id);
    sendJson(response, 200, {
      model_id: body.model_id,
      model_data: { arch: state.base.info.arch, model_name: state.base.name, tokenizer_id: state.base.info.tokenizerId },
      is_lora: state.base.info.isLora,
      lora_rank: found.rank,
      note: state.base.info.note,
    });
  },

  forward_backward: async (state, request, response) => {
    if ((request.headers["content-type"] ?? "").includes("application/json")) {
      runForwardBackward(state, decodeJsonForwardBackward(await json(request, JsonForwardBackwardSchema)), response);
      return;
    }
    if (!(request.headers["content-type"] ?? "").includes("application/x-protobuf")) {
      throw new HttpError(415, "forward_backward takes application/x-protobuf or application/json (ForwardBackwardRequest)");
    }
    const { maxChunkBytes } = state.options;
    const encoding = request.headers["content-encoding"] ?? "identity";
    if (encoding !== "zstd" && encoding !== "identity") {
      request.resume();
      throw new HttpError(415, `content-encoding ${encoding} is not supported on forward_backward (zstd or none)`, "invalid_request_error");
    }
    let bytes: Uint8Array = await readBytes(request, maxChunkBytes * 2);
    // Decompressed under the client config's byte limit, which the SDK keeps every request under before compressing.
    if (encoding === "zstd") bytes = await decompressZstdBody(bytes, maxChunkBytes);
    if (bytes.byteLength > maxChunkBytes) throw new HttpError(413, `forward_backward of ${bytes.byteLength} bytes; the limit is ${maxChunkBytes}`);
    runForwardBackward(state, decodeProtobufBody(bytes), response);
  },

  // Tinker 0.23's forward-only route (JSON ForwardRequest), which the protobuf wire replaced by forward_only.
  forward: async (state, request, response) => {
    runForwardBackward(state, decodeJsonForwardBackward(await json(request, JsonForwardSchema)), response);
  },

  optim_step: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), adam_params: AdamSchema }));
    const target = model(state, body.model_id);
    state.startFuture(response, async () => ({ json: { metrics: await target.learner.optimStep(body.adam_params) } }), queued(state, body.model_id, body.seq_id));
  },

  save_weights: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), path: z.string().min(1).nullish() }));
    const target = model(state, body.model_id);
    // tinker 0.38's SaveWeightsRequest.path is optional; the service then names the checkpoint itself.
    const path = `tinker://${body.model_id}/weights/${body.path ?? `state-${body.seq_id}`}`;
    state.startFuture(response, async () => {
      state.trainStates.set(path, await target.learner.saveState(path));
      state.trainStateRanks.set(path, target.rank);
      return { json: { path } };
    }, queued(state, body.model_id, body.seq_id));
  },

  save_weights_for_sampler: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), path: z.string().min(1).nullish(), sampling_session_seq_id: z.number().int().nullish() }));
    const target = model(state, body.model_id);
    const slot = queued(state, body.model_id, body.seq_id);
    if (!body.path) {
      // Without a name (save_weights_and_get_sampling_client), the service answers a sampling session on the weights.
      const sessionId = body.model_id.slice(0, body.model_id.indexOf(":train:"));
      state.startFuture(response, async () => ({ json: { sampling_session_id: state.base.sampling.create(sessionId, await target.learner.samplerWeights(), { baseModel: state.base.name, modelPath: null }) } }), slot);
      return;
    }
    const path = `tinker://${body.model_id}/sampler_weights/${body.path}`;
    state.startFuture(response, async () => {
      state.samplerWeights.set(path, await target.learner.samplerWeights());
      return { json: { path } };
    }, slot);
  },

  load_weights: async (state, request, response) => {
    const body = await json(request, z.object({
      model_id: z.string().nullish(),
      seq_id: z.number().int().nullish(),
      session_id: z.string().nullish(),
      model_seq_id: z.number().int().nullish(),
      base_model: z.string().nullish(),
      path: z.string(),
      optimizer: z.boolean().default(false),
    }));
    const saved = state.trainStates.get(body.path);
    if (!saved) throw new HttpError(404, `unknown checkpoint path "${body.path}"`, "not_found_error", "path");
    if (body.model_id == null) {
      // create_training_client_from_state: a new model made from the checkpoint, without create_model.
      if (body.session_id == null || body.model_seq_id == null) throw new HttpError(400, "load_weights needs model_id and seq_id, or session_id and model_seq_id", "invalid_request_error", "model_id");
      if (!state.sessions.has(body.session_id)) throw new HttpError(404, `unknown session "${body.session_id}"`, "not_found_error", "session_id");
      if (body.base_model != null) checkBaseModel(state, body.base_model);
      const modelId = `${body.session_id}:train:${body.model_seq_id}`;
      const rank = state.trainStateRanks.get(body.path) ?? 32;
      state.startFuture(response, async () => {
        const learner = await state.base.createLearner({ rank, seed: 0, trainAttention: true, trainMlp: true });
        await learner.loadState(saved, body.optimizer);
        state.models.set(modelId, { learner, queue: new SequenceQueue(), rank });
        return { json: { path: body.path, model_id: modelId } };
      });
      return;
    }
    const target = model(state, body.model_id);
    const modelId = body.model_id;
    state.startFuture(response, async () => {
      await target.learner.loadState(saved, body.optimizer);
      return { json: { path: body.path, model_id: modelId } };
    }, queued(state, modelId, body.seq_id ?? -1));
  },

  create_sampling_session: async (state, request, response) => {
    const body = await json(request, z.object({ session_id: z.string(), sampling_session_seq_id: z.number().int(), base_model: z.string().nullish(), model_path: z.string().nullish() }));
    if (!state.sessions.has(body.session_id)) throw new HttpError(404, `unknown session "${body.session_id}"`, "not_found_error", "session_id");
    let weights = state.base.baseSamplerWeights;
    if (body.model_path) {
      const found = state.samplerWeights.get(body.model_path);
      if (found === undefined) throw new HttpError(404, `unknown sampler path "${body.model_path}"`, "not_found_error", "model_path");
      weights = found;
    } else {
      checkBaseModel(state, body.base_model ?? "");
    }
    state.stats.samplingSources.push(body.model_path ?? body.base_model ?? "");
    const source = { baseModel: state.base.name, modelPath: body.model_path ?? null };
    sendJson(response, 200, { sampling_session_id: state.base.sampling.create(body.session_id, weights, source) });
  },

  asample: async (state, request, response) => {
    const body = await json(request, SampleSchema);
    if (!state.base.sampling.has(body.sampling_session_id)) throw new HttpError(404, `unknown sampling session "${body.sampling_session_id}"`, "not_found_error", "sampling_session_id");
    const prompt = body.prompt.chunks.flatMap((chunk) => chunk.tokens);
    const stop = body.sampling_params.stop;
    const stopList: (string | number)[] = stop == null ? [] : typeof stop === "string" ? [stop] : stop;
    for (const [field, value] of [["topk_prompt_logprobs", body.topk_prompt_logprobs > 0], ["topk_sample_logprobs", body.topk_sample_logprobs > 0], ["prompt_alt_tokens_k", body.prompt_alt_tokens_k > 0], ["target_prompt_logprobs", body.target_prompt_logprobs != null], ["sampling_params.top_k", body.sampling_params.top_k !== -1]] as const) {
      // Refused, not ignored: the SDK would otherwise wait for prompt logprobs that never come.
      if (value) throw new HttpError(400, `the local Tinker server does not support ${field} (top-k logprobs, target logprobs and alternative tokens are not computed)`, "invalid_request_error", field);
    }
    const lastN = body.prompt_logprobs_last_n ?? undefined;
    if (lastN !== undefined && (body.prompt_logprobs !== true || lastN >= prompt.length)) {
      throw new HttpError(400, `prompt_logprobs_last_n needs prompt_logprobs and must be between 1 and ${prompt.length - 1}`, "invalid_request_error", "prompt_logprobs_last_n");
    }
    state.startFuture(response, async () => {
      if (prompt.length === 0 || prompt.length >= state.base.contextLength) throw new FutureFailure(`prompt of ${prompt.length} tokens; the context is ${state.base.contextLength}`, "user");
      if (prompt.some((token) => token < 0 || token >= state.base.vocabularySize)) throw new FutureFailure(`a prompt token is outside the vocabulary (${state.base.vocabularySize})`, "user");
      const sequences = await state.base.sampling.sample(body.sampling_session_id, {
        promptTokenIds: prompt,
        numSamples: body.num_samples,
        maxTokens: body.sampling_params.max_tokens ?? state.base.contextLength,
        temperature: body.sampling_params.temperature,
        topP: body.sampling_params.top_p,
        ...(body.sampling_params.seed != null ? { seed: body.sampling_params.seed } : {}),
        stopTokenIds: stopList.filter((entry): entry is number => typeof entry === "number"),
        stopStrings: stopList.filter((entry): entry is string => typeof entry === "string"),
      });
      const promptLogprobs = body.prompt_logprobs === true ? await state.base.sampling.promptLogprobs(body.sampling_session_id, prompt, lastN) : undefined;
      return {
        proto: encodeSampleResponse(sequences, promptLogprobs),
        json: {
          sequences: sequences.map((sequence) => ({ tokens: sequence.tokens, logprobs: sequence.logprobs, stop_reason: sequence.stopReason })),
          ...(promptLogprobs ? { prompt_logprobs: promptLogprobs } : {}),
        },
      };
    }, undefined, {
      // tinker 0.38 requires one id per sample on the asample promise (UntypedAPIFuture.sample_sequence_ids).
      sample_sequence_ids: Array.from({ length: body.num_samples }, (_, index) => `${body.sampling_session_id}:${body.seq_id}:${index}`),
    });
  },

  // The SDK (0.38) asks for a sampler's base model when it opens a SamplingClient (sampling_client.py, _fetch_sampler).
  "samplers/": async (state, request, response) => {
    request.resume();
    const id = decodePathSegment(requestPath(request).slice("/api/v1/samplers/".length), "the sampler id");
    const source = state.base.sampling.source(id);
    if (!source) throw new HttpError(404, `unknown sampler "${id}"`, "not_found_error", "sampler_id");
    sendJson(response, 200, { sampler_id: id, base_model: source.baseModel, model_path: source.modelPath });
  },

  // The SDK sends usage telemetry unless TINKER_TELEMETRY=0; the local server takes it and keeps nothing.
  telemetry: async (_state, request, response) => {
    await readJsonBody(request, MAX_JSON_BYTES);
    sendJson(response, 200, { status: "accepted" });
  },

  retrieve_future: async (state, request, response) => {
    const body = await json(request, z.object({ request_id: z.string(), allow_metadata_only: z.boolean().default(false) }));
    if (state.faults.slow_poll_ms > 0) await new Promise((resolve) => setTimeout(resolve, state.faults.slow_poll_ms));
    const answer = await state.futures.poll(body.request_id, body.allow_metadata_only);
    if (!answer) throw new HttpError(404, `unknown request_id "${body.request_id}"`, "not_found_error", "request_id");
    const base = { request_id: body.request_id };
    switch (answer.kind) {
      case "lost":
        throw new HttpError(410, `future ${body.request_id} is gone; resubmit the request`);
      case "timeout":
        sendJson(response, 408, { type: "try_again", ...base, queue_state: "active" });
        return;
      case "try_again":
        sendJson(response, 200, { type: "try_again", ...base, queue_state: "active" });
        return;
      case "error":
        sendJson(response, 200, { error: answer.message, category: answer.category, ...base });
        return;
      case "metadata":
        sendJson(response, 200, { status: "complete_metadata", response_payload_size: answer.size, ...base });
        return;
      case "result": {
        const { result } = answer;
        if ("proto" in result && (request.headers.accept ?? "").includes("application/x-protobuf")) {
          response.writeHead(200, { "content-type": "application/x-protobuf", "content-length": String(result.proto.byteLength) });
          response.end(result.proto);
          return;
        }
        sendJson(response, 200, result.json);
      }
    }
  },

  unload_model: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string() }));
    const target = model(state, body.model_id);
    state.startFuture(response, async () => {
      state.models.delete(body.model_id);
      await target.learner.dispose();
      return { json: { model_id: body.model_id } };
    });
  },
};
