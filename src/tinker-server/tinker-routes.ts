/** The local Tinker server's routes under /api/v1: JSON bodies validated with zod, forward_backward in protobuf. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { HttpError } from "../http/http-error.js";
import { parseRequest } from "../http/parse-request.js";
import { readJsonBody } from "../http/read-json-body.js";
import { sendJson } from "../http/send-json.js";
import { loadZstd } from "../training/backends/tinker/tinker-http-client.js";
import { decodeForwardBackwardRequest, encodeForwardBackwardOutput, encodeSampleResponse } from "../training/backends/tinker/tinker-proto.js";
import { TINY_TOKENIZER_ID } from "../training/backends/tinker/tiny-chat-renderer.js";
import { FutureFailure } from "./future-table.js";
import { LOCAL_TINKER_MODEL, type ServerState } from "./local-tinker-server.js";
import { SequenceQueue } from "./sequence-queue.js";
import { TinyTinkerLearner } from "./tiny-tinker-learner.js";

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
  prompt: z.object({ chunks: z.array(z.object({ type: z.literal("encoded_text"), tokens: z.array(z.number().int()) })) }),
  sampling_params: z.object({
    max_tokens: z.number().int().positive().nullish(),
    seed: z.number().int().nullish(),
    stop: z.union([z.string(), z.array(z.string()), z.array(z.number().int())]).nullish(),
    temperature: z.number().min(0).default(1),
    top_p: z.number().gt(0).max(1).default(1),
  }),
});

/** Routes by path below /api/v1/. */
export const tinkerRoutes: Record<string, Route> = {
  get_server_capabilities: async (state, _request, response) => {
    sendJson(response, 200, { supported_models: [{ model_name: LOCAL_TINKER_MODEL, max_context_length: state.contextLength }] });
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
    const body = await json(request, z.object({ session_id: z.string(), model_seq_id: z.number().int(), base_model: z.string(), lora_config: z.object({ rank: z.number().int().positive() }).passthrough() }));
    if (!state.sessions.has(body.session_id)) throw new HttpError(404, `unknown session "${body.session_id}"`, "not_found_error", "session_id");
    if (body.base_model !== LOCAL_TINKER_MODEL) {
      throw new HttpError(400, `unknown base model "${body.base_model}"; supported: ${LOCAL_TINKER_MODEL}`, "invalid_request_error", "base_model");
    }
    const modelId = `${body.session_id}:train:${body.model_seq_id}`;
    state.startFuture(response, async () => {
      state.models.set(modelId, { learner: await TinyTinkerLearner.create(state.modelConfig, state.baseWeights), queue: new SequenceQueue(), rank: body.lora_config.rank });
      return { json: { model_id: modelId } };
    });
  },

  get_info: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string() }));
    const found = model(state, body.model_id);
    sendJson(response, 200, {
      model_id: body.model_id,
      model_data: { arch: "rllm-tiny-transformer", model_name: LOCAL_TINKER_MODEL, tokenizer_id: TINY_TOKENIZER_ID },
      is_lora: false,
      lora_rank: found.rank,
      note: "local Tinker server: full weights stand in for LoRA; the rank is recorded, not applied",
    });
  },

  forward_backward: async (state, request, response) => {
    if (!(request.headers["content-type"] ?? "").includes("application/x-protobuf")) {
      throw new HttpError(415, "forward_backward takes application/x-protobuf (ForwardBackwardRequest)");
    }
    const { maxChunkBytes, maxChunkDatums } = state.options;
    let bytes: Uint8Array = await readBytes(request, maxChunkBytes * 2);
    if (request.headers["content-encoding"] === "zstd") bytes = (await loadZstd()).decompress(bytes);
    if (bytes.byteLength > maxChunkBytes) throw new HttpError(413, `forward_backward of ${bytes.byteLength} bytes; the limit is ${maxChunkBytes}`);
    const decoded = decodeForwardBackwardRequest(bytes);
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
        const output = target.learner.forwardBackward(decoded, state.vocabularySize, state.contextLength);
        return { proto: encodeForwardBackwardOutput(output), json: { loss_fn_output_type: output.lossFnOutputType, loss_fn_outputs: output.outputs.map((entry) => Object.fromEntries(Object.entries(entry).map(([name, data]) => [name, { data, dtype: "float32" }]))), metrics: output.metrics } };
      },
      slot,
    );
  },

  optim_step: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), adam_params: AdamSchema }));
    const target = model(state, body.model_id);
    state.startFuture(response, async () => ({ json: { metrics: target.learner.optimStep(body.adam_params) } }), queued(state, body.model_id, body.seq_id));
  },

  save_weights: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), path: z.string().min(1) }));
    const target = model(state, body.model_id);
    const path = `tinker://${body.model_id}/weights/${body.path}`;
    state.startFuture(response, async () => {
      state.trainStates.set(path, target.learner.state());
      return { json: { path } };
    }, queued(state, body.model_id, body.seq_id));
  },

  save_weights_for_sampler: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), path: z.string().min(1) }));
    const target = model(state, body.model_id);
    const path = `tinker://${body.model_id}/sampler_weights/${body.path}`;
    state.startFuture(response, async () => {
      state.samplerWeights.set(path, target.learner.weights());
      return { json: { path } };
    }, queued(state, body.model_id, body.seq_id));
  },

  load_weights: async (state, request, response) => {
    const body = await json(request, z.object({ model_id: z.string(), seq_id: z.number().int(), path: z.string(), optimizer: z.boolean().default(false) }));
    const target = model(state, body.model_id);
    const saved = state.trainStates.get(body.path);
    if (!saved) throw new HttpError(404, `unknown checkpoint path "${body.path}"`, "not_found_error", "path");
    state.startFuture(response, async () => {
      target.learner.load(saved, body.optimizer);
      return { json: { path: body.path } };
    }, queued(state, body.model_id, body.seq_id));
  },

  create_sampling_session: async (state, request, response) => {
    const body = await json(request, z.object({ session_id: z.string(), sampling_session_seq_id: z.number().int(), base_model: z.string().nullish(), model_path: z.string().nullish() }));
    if (!state.sessions.has(body.session_id)) throw new HttpError(404, `unknown session "${body.session_id}"`, "not_found_error", "session_id");
    let weights = state.baseWeights;
    if (body.model_path) {
      const found = state.samplerWeights.get(body.model_path);
      if (!found) throw new HttpError(404, `unknown sampler path "${body.model_path}"`, "not_found_error", "model_path");
      weights = found;
    } else if (body.base_model !== LOCAL_TINKER_MODEL) {
      throw new HttpError(400, `unknown base model "${body.base_model}"; supported: ${LOCAL_TINKER_MODEL}`, "invalid_request_error", "base_model");
    }
    state.stats.samplingSources.push(body.model_path ?? body.base_model ?? "");
    sendJson(response, 200, { sampling_session_id: state.sampling.create(body.session_id, weights) });
  },

  asample: async (state, request, response) => {
    const body = await json(request, SampleSchema);
    if (!state.sampling.has(body.sampling_session_id)) throw new HttpError(404, `unknown sampling session "${body.sampling_session_id}"`, "not_found_error", "sampling_session_id");
    const prompt = body.prompt.chunks.flatMap((chunk) => chunk.tokens);
    const stop = body.sampling_params.stop;
    if (typeof stop === "string" || (Array.isArray(stop) && stop.some((entry) => typeof entry === "string"))) {
      throw new HttpError(400, "the local Tinker server takes stop tokens (int ids), not stop strings", "invalid_request_error", "sampling_params.stop");
    }
    state.startFuture(response, async () => {
      if (prompt.length === 0 || prompt.length >= state.contextLength) throw new FutureFailure(`prompt of ${prompt.length} tokens; the context is ${state.contextLength}`, "user");
      if (prompt.some((token) => token < 0 || token >= state.vocabularySize)) throw new FutureFailure(`a prompt token is outside the vocabulary (${state.vocabularySize})`, "user");
      const sequences = await state.sampling.sample(body.sampling_session_id, {
        promptTokenIds: prompt,
        numSamples: body.num_samples,
        maxTokens: body.sampling_params.max_tokens ?? state.contextLength,
        temperature: body.sampling_params.temperature,
        topP: body.sampling_params.top_p,
        ...(body.sampling_params.seed != null ? { seed: body.sampling_params.seed } : {}),
        stopTokenIds: (stop as number[] | null | undefined) ?? [],
      });
      return {
        proto: encodeSampleResponse(sequences),
        json: { sequences: sequences.map((sequence) => ({ tokens: sequence.tokens, logprobs: sequence.logprobs, stop_reason: sequence.stopReason })) },
      };
    });
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
      target.learner.dispose();
      return { json: {} };
    });
  },
};
