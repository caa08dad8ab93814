/**
 * An OpenAI chat endpoint over the Tinker sampler, so agent flows run on a Tinker policy unchanged: each request is
 * rendered with the base model's chat template, sampled through asample, parsed for Hermes/Qwen `<tool_call>` blocks,
 * and answered as a chat completion with vLLM's token fields (`prompt_token_ids`, per-choice `token_ids`, logprobs)
 * that the training gateway captures.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { ChatMessageSchema, ToolDefinitionSchema } from "../../core/message.js";
import { HttpError } from "../../http/http-error.js";
import { parseRequest } from "../../http/parse-request.js";
import { readJsonBody } from "../../http/read-json-body.js";
import { sendJson } from "../../http/send-json.js";
import { requestPath, startHttpServer } from "../../http/start-http-server.js";
import type { ChatRenderer } from "./chat-renderer.js";
import { parseToolCalls } from "./parse-tool-calls.js";
import type { TinkerSampler } from "./tinker-sampler.js";

const ChatRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(ChatMessageSchema).min(1),
  tools: z.array(ToolDefinitionSchema).optional(),
  n: z.number().int().positive().default(1),
  temperature: z.number().min(0).default(1),
  top_p: z.number().gt(0).max(1).default(1),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  seed: z.number().int().nullish(),
  logprobs: z.boolean().nullish(),
  stream: z.boolean().nullish(),
});

export interface ChatServerOptions {
  renderer: ChatRenderer;
  /**
   * The sampler for a request's `model`: the current policy version's, or another version's a training backend still
   * serves (async rollouts name it in the model); throws an HttpError for a version it no longer has.
   */
  sampler: (model: string | undefined) => TinkerSampler;
  /** The name answered in `model`. */
  modelName: string;
  maxContext: number;
}

/** A running chat endpoint; `baseUrl` ends in /v1. */
export interface ChatServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the endpoint on a free 127.0.0.1 port. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const server = await startHttpServer((request, response) => handle(options, request, response), { host: "127.0.0.1", port: 0 });
  return { baseUrl: `${server.origin}/v1`, close: server.close };
}

async function handle(options: ChatServerOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const route = requestPath(request);
  if (request.method === "GET" && route === "/v1/models") {
    sendJson(response, 200, { object: "list", data: [{ id: options.modelName, object: "model", owned_by: "tinker", max_model_len: options.maxContext }] });
    return;
  }
  if (request.method !== "POST" || route !== "/v1/chat/completions") throw new HttpError(404, `No route ${request.method} ${route || "/"}`, "not_found_error");
  const body = parseRequest(ChatRequestSchema, await readJsonBody(request, 10_000_000));
  if (body.stream) throw new HttpError(400, "stream is not supported by the Tinker chat endpoint", "invalid_request_error", "stream");
  sendJson(response, 200, await chatCompletion(options, body));
}

async function chatCompletion(options: ChatServerOptions, request: z.infer<typeof ChatRequestSchema>): Promise<unknown> {
  const promptIds = options.renderer.render(request.messages, request.tools);
  const room = options.maxContext - promptIds.length;
  if (room < 1) {
    throw new HttpError(400, `This model's maximum context length is ${options.maxContext} tokens. However, your prompt is ${promptIds.length} tokens.`, "invalid_request_error", "messages");
  }
  const sampler = options.sampler(request.model);
  const sequences = await sampler.sample({
    promptTokenIds: promptIds,
    numSamples: request.n,
    maxTokens: Math.min(request.max_completion_tokens ?? request.max_tokens ?? room, room),
    temperature: request.temperature,
    topP: request.top_p,
    stopTokenIds: options.renderer.stopTokenIds,
    ...(request.seed != null ? { seed: request.seed } : {}),
  });
  const id = `chatcmpl-${randomUUID()}`;
  const completionTokens = sequences.reduce((sum, sequence) => sum + sequence.tokens.length, 0);
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: options.modelName,
    weight_version: sampler.version,
    prompt_token_ids: promptIds,
    choices: sequences.map((sequence, index) => {
      const { content, toolCalls } = parseToolCalls(options.renderer.decode(sequence.tokens), `call-${id}-${index}`);
      return {
        index,
        message: { role: "assistant", content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls.length > 0 ? "tool_calls" : sequence.stopReason,
        token_ids: sequence.tokens,
        logprobs: request.logprobs
          ? { content: sequence.tokens.map((token, position) => ({ token: options.renderer.decode([token]), logprob: sequence.logprobs[position] ?? 0, top_logprobs: [] })) }
          : null,
      };
    }),
    usage: { prompt_tokens: promptIds.length, completion_tokens: completionTokens, total_tokens: promptIds.length + completionTokens },
  };
}
