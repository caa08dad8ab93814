/**
 * The OpenAI-compatible HTTP server (vLLM-flavoured) in front of a served model: /v1/models, /v1/chat/completions,
 * /v1/completions, /tokenize, /detokenize and /health. Bad requests get OpenAI-shaped JSON errors with their status;
 * nothing a client sends crashes it, and /health answers while the model is busy (the model yields the event loop
 * between tokens).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../../http/http-error.js";
import { parseRequest } from "../../http/parse-request.js";
import { readJsonBody } from "../../http/read-json-body.js";
import { sendJson } from "../../http/send-json.js";
import { requestPath, startHttpServer } from "../../http/start-http-server.js";
import { chatCompletion, textCompletion, type SendEvent } from "./completion-handlers.js";
import type { ServedModel } from "./served-model.js";
import { ChatCompletionRequestSchema, CompletionRequestSchema, DetokenizeRequestSchema, TokenizeRequestSchema } from "./server-schemas.js";

export interface ModelServerOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** Largest request body in bytes; a bigger one is refused with a 413 before parsing. */
  maxBodyBytes: number;
}

export interface ModelServer {
  /** The server's origin (`http://127.0.0.1:PORT`); an OpenAI client's baseURL is `${url}/v1`. */
  url: string;
  close(): Promise<void>;
}

/** Starts the server in front of `model`; resolves once it listens. */
export async function startModelServer(model: ServedModel, options: ModelServerOptions): Promise<ModelServer> {
  const server = await startHttpServer((request, response) => handle(model, options.maxBodyBytes, request, response), { host: options.host, port: options.port });
  return { url: server.origin, close: server.close };
}

async function handle(model: ServedModel, maxBodyBytes: number, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const route = requestPath(request);
  const method = request.method ?? "GET";
  if (method === "GET" && (route === "/v1/models" || route === "/models")) {
    sendJson(response, 200, { object: "list", data: [{ id: model.name, object: "model", created: 0, owned_by: "rllm-ts", max_model_len: model.contextLength }] });
    return;
  }
  if (method === "GET" && route === "") {
    sendJson(response, 200, { status: "ok" });
    return;
  }
  const post = postRoutes[route];
  if (!post) throw new HttpError(404, `No route ${method} ${route || "/"}`, "not_found_error");
  if (method !== "POST") throw new HttpError(405, `Use POST for ${route}`, "invalid_request_error");
  await post(model, await readJsonBody(request, maxBodyBytes), response);
}

type PostHandler = (model: ServedModel, body: unknown, response: ServerResponse) => Promise<void>;

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
  const tokens = "prompt" in request ? model.encodeText(request.prompt) : model.applyChatTemplate(request.messages);
  sendJson(response, 200, { count: tokens.length, max_model_len: model.contextLength, tokens });
};

const detokenize: PostHandler = async (model, body, response) => {
  const request = parseRequest(DetokenizeRequestSchema, body);
  const outside = request.tokens.find((id) => id >= model.vocabularySize);
  if (outside !== undefined) throw new HttpError(400, `Token id ${outside} is outside the vocabulary (size ${model.vocabularySize})`, "invalid_request_error", "tokens");
  sendJson(response, 200, { prompt: model.decodeTokens(request.tokens) });
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
