/**
 * The tiny model's OpenAI-compatible HTTP server (vLLM-flavoured): /v1/models, /v1/chat/completions, /v1/completions,
 * /tokenize and /detokenize. Bad requests get OpenAI-shaped JSON errors with their status; nothing a client sends crashes it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import { applyChatTemplate } from "./chat-template.js";
import { chatCompletion, textCompletion, TINY_MODEL_NAME, type SendEvent } from "./completion-handlers.js";
import { HttpError } from "./http-error.js";
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

// Bodies are small JSON; anything bigger is refused before parsing.
const MAX_BODY_BYTES = 1_000_000;

/** Starts the server; resolves once it listens. */
export async function startTinyServer(options: TinyServerOptions = {}): Promise<TinyServer> {
  const model = options.model ?? (await loadTinyModel(options.checkpointDir));
  const host = options.host ?? "127.0.0.1";
  const server = createServer((request, response) => {
    handle(model, request, response).catch((error: unknown) => {
      const failure = error instanceof HttpError ? error : new HttpError(500, `Internal error: ${(error as Error).message}`, "internal_error");
      if (!response.headersSent) sendJson(response, failure.status, failure.toBody());
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    model,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(model: TinyModel, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const route = (request.url ?? "/").split("?")[0].replace(/\/+$/, "");
  const method = request.method ?? "GET";
  if (method === "GET" && (route === "/v1/models" || route === "/models")) {
    sendJson(response, 200, { object: "list", data: [modelCard(model)] });
    return;
  }
  if (method === "GET" && (route === "/health" || route === "")) {
    sendJson(response, 200, { status: "ok" });
    return;
  }
  const post = postRoutes[route];
  if (!post) throw new HttpError(404, `No route ${method} ${route || "/"}`, "not_found_error");
  if (method !== "POST") throw new HttpError(405, `Use POST for ${route}`, "invalid_request_error");
  await post(model, await readJson(request), response);
}

type PostHandler = (model: TinyModel, body: unknown, response: ServerResponse) => Promise<void>;

function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue.path.join(".") || null;
  throw new HttpError(400, `Invalid request: field "${param ?? "(root)"}": ${issue.message}`, "invalid_request_error", param);
}

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

const postRoutes: Record<string, PostHandler> = {
  "/v1/chat/completions": async (model, body, response) => {
    const request = parseBody(ChatCompletionRequestSchema, body);
    await completionRoute(response, request.stream === true, (send) => chatCompletion(model, request, send));
  },
  "/v1/completions": async (model, body, response) => {
    const request = parseBody(CompletionRequestSchema, body);
    await completionRoute(response, request.stream === true, (send) => textCompletion(model, request, send));
  },
  "/tokenize": async (model, body, response) => {
    const request = parseBody(TokenizeRequestSchema, body);
    const tokens = "prompt" in request ? encodeText(request.prompt) : applyChatTemplate(request.messages);
    sendJson(response, 200, { count: tokens.length, max_model_len: model.config.contextLength, tokens });
  },
  "/detokenize": async (_model, body, response) => {
    const request = parseBody(DetokenizeRequestSchema, body);
    const outside = request.tokens.find((id) => id >= VOCABULARY.length);
    if (outside !== undefined) throw new HttpError(400, `Token id ${outside} is outside the vocabulary (size ${VOCABULARY.length})`, "invalid_request_error", "tokens");
    sendJson(response, 200, { prompt: decodeTokens(request.tokens, true) });
  },
};
postRoutes["/v1/tokenize"] = postRoutes["/tokenize"];
postRoutes["/v1/detokenize"] = postRoutes["/detokenize"];

function modelCard(model: TinyModel) {
  return { id: TINY_MODEL_NAME, object: "model", created: 0, owned_by: "rllm-ts", max_model_len: model.config.contextLength };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Malformed JSON in request body");
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

export { TINY_MODEL_NAME };
