/**
 * The tiny model's OpenAI-compatible HTTP server (vLLM-flavoured): /v1/models, /v1/chat/completions, /v1/completions,
 * /tokenize, /detokenize and /health. Bad requests get OpenAI-shaped JSON errors with their status; nothing a client
 * sends crashes it, and /health answers while the model is busy (generation yields the event loop, see step-scheduler.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../../http/http-error.js";
import { parseRequest } from "../../http/parse-request.js";
import { readJsonBody } from "../../http/read-json-body.js";
import { sendJson } from "../../http/send-json.js";
import { requestPath, startHttpServer } from "../../http/start-http-server.js";
import { applyChatTemplate } from "./chat-template.js";
import { chatCompletion, textCompletion, TINY_MODEL_NAME, type SendEvent } from "./completion-handlers.js";
import {
  ChatCompletionRequestSchema,
  CompletionRequestSchema,
  DetokenizeRequestSchema,
  TokenizeRequestSchema,
} from "./server-schemas.js";
import { loadTinyModel, type TinyModel } from "./tiny-model.js";
import { decodeTokens, encodeText, VOCABULARY } from "./tokenizer.js";

export interface TinyServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Checkpoint to serve; the shipped one by default. */
  checkpointDir?: string;
  /** An already loaded model (e.g. a trainer's current policy) instead of a checkpoint. */
  model?: TinyModel;
}

export interface TinyServer {
  /** The server's origin (`http://127.0.0.1:PORT`); an OpenAI client's baseURL is `${url}/v1`. */
  url: string;
  model: TinyModel;
  close(): Promise<void>;
}

/** Largest request body in bytes: prompts fit in 104 tokens, so anything bigger is refused with a 413 before parsing. */
export const TINY_SERVER_MAX_BODY_BYTES = 1_000_000;

/** Starts the server; resolves once it listens. */
export async function startTinyServer(options: TinyServerOptions = {}): Promise<TinyServer> {
  const model = options.model ?? (await loadTinyModel(options.checkpointDir));
  const server = await startHttpServer((request, response) => handle(model, request, response), {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
  });
  return { url: server.origin, model, close: server.close };
}

async function handle(model: TinyModel, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const route = requestPath(request);
  const method = request.method ?? "GET";
  if (method === "GET" && (route === "/v1/models" || route === "/models")) {
    sendJson(response, 200, { object: "list", data: [modelCard(model)] });
    return;
  }
  if (method === "GET" && route === "") {
    sendJson(response, 200, { status: "ok" });
    return;
  }
  const post = postRoutes[route];
  if (!post) throw new HttpError(404, `No route ${method} ${route || "/"}`, "not_found_error");
  if (method !== "POST") throw new HttpError(405, `Use POST for ${route}`, "invalid_request_error");
  await post(model, await readJsonBody(request, TINY_SERVER_MAX_BODY_BYTES), response);
}

type PostHandler = (model: TinyModel, body: unknown, response: ServerResponse) => Promise<void>;

async function completionRoute(response: ServerResponse, stream: boolean, run: (send?: SendEvent) => Promise<unknown>): Promise<void> {
  if (!stream) {
    sendJson(response, 200, await run());
    return;
  }
  let started = false;
  const send: SendEvent = (data) => {
    if (!started) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      started = true;
    }
    response.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  await run(send);
  if (!started) response.writeHead(200, { "content-type": "text/event-stream" });
  response.end("data: [DONE]\n\n");
}

const tokenize: PostHandler = async (model, body, response) => {
  const request = parseRequest(TokenizeRequestSchema, body);
  const tokens = "prompt" in request ? encodeText(request.prompt) : applyChatTemplate(request.messages);
  sendJson(response, 200, { count: tokens.length, max_model_len: model.config.contextLength, tokens });
};

const detokenize: PostHandler = async (_model, body, response) => {
  const request = parseRequest(DetokenizeRequestSchema, body);
  const outside = request.tokens.find((id) => id >= VOCABULARY.length);
  if (outside !== undefined) throw new HttpError(400, `Token id ${outside} is outside the vocabulary (size ${VOCABULARY.length})`, "invalid_request_error", "tokens");
  sendJson(response, 200, { prompt: decodeTokens(request.tokens, true) });
};

const postRoutes: Record<string, PostHandler> = {
  "/v1/chat/completions": async (model, body, response) => {
    const request = parseRequest(ChatCompletionRequestSchema, body);
    await completionRoute(response, request.stream === true, (send) => chatCompletion(model, request, send));
  },
  "/v1/completions": async (model, body, response) => {
    const request = parseRequest(CompletionRequestSchema, body);
    await completionRoute(response, request.stream === true, (send) => textCompletion(model, request, send));
  },
  "/tokenize": tokenize,
  "/v1/tokenize": tokenize,
  "/detokenize": detokenize,
  "/v1/detokenize": detokenize,
};

function modelCard(model: TinyModel) {
  return { id: TINY_MODEL_NAME, object: "model", created: 0, owned_by: "rllm-ts", max_model_len: model.config.contextLength };
}

export { TINY_MODEL_NAME };
