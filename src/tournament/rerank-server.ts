/**
 * An OpenAI-compatible server that samples candidates upstream, reranks them by tournament and answers with the winner.
 * Upstream 4xx errors are relayed with their status (an unknown model is the upstream's 404); fields a reranker cannot
 * honour are refused with a 400 that names them (see docs/servers.md).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { InfraError } from "../core/errors/infra-error.js";
import { ChatMessageSchema, messageText } from "../core/message.js";
import { HttpError } from "../http/http-error.js";
import { parseRequest } from "../http/parse-request.js";
import { readJsonBody } from "../http/read-json-body.js";
import { sendJson } from "../http/send-json.js";
import { requestPath, startHttpServer } from "../http/start-http-server.js";
import { upstreamHttpError } from "../http/upstream-http-error.js";
import type { ChatChoice, LlmClient, SamplingParams } from "../core/llm-client.js";
import { createOpenAiClient } from "../llm/openai-client.js";
import type { JudgeKind } from "./judge-prompts.js";
import { createLlmJudge } from "./llm-judge.js";
import { rerankCandidates } from "./rerank-candidates.js";
import type { SelectionMethod } from "./selection-methods.js";
import { SelectionMethodSchema, defaultSelectionConfig } from "./selection-methods.js";
import { usefulJudgeCalls } from "./useful-judge-calls.js";

export interface RerankServerOptions {
  /** Base URL of the OpenAI-compatible server that generates and judges, e.g. http://localhost:8000/v1. */
  upstream: string;
  /** Model name sent upstream when the request names none. */
  model: string;
  apiKey?: string;
  /** Candidates sampled per request. */
  n: number;
  /** Judge budget as a multiple of n (a request's `rerank.max_calls` may lower or raise it, up to `maxCalls`). */
  budget: number;
  /** The most judge calls one request may spend, whatever it asks (`rllm serve --max-calls`); cut to usefulJudgeCalls(n) too. */
  maxCalls: number;
  method: SelectionMethod;
  judgeKind: JudgeKind;
  port: number;
  host?: string;
  /** Base seed of the pairing; a request's own `seed` is added to it. */
  seed?: number;
  /** Builds the upstream client (tests inject one); defaults to the retrying OpenAI client. */
  createClient?: (model: string) => LlmClient;
}

/** Largest request body in bytes, as the gateway's: chat histories can be long, but not unbounded. */
export const RERANK_SERVER_MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The chat-completions fields the server reads. `logprobs` and `top_logprobs` are refused (the winner's per-token
 * logprobs are not what the reranker chose by); `n` picks the n best candidates; other fields are ignored.
 */
const RerankRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(ChatMessageSchema).min(1),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().min(1).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).nullish(),
  /** Ours, per request: the selection method and the judge-call budget (absolute calls) instead of the server's. */
  rerank: z
    .object({
      method: SelectionMethodSchema.optional(),
      // An upper bound, like the server's own: a larger one is cut to the server's cap (the reply's `budget` says which ran).
      max_calls: z.number().int().nonnegative().optional(),
    })
    .strict()
    .optional(),
});
type RerankRequest = z.infer<typeof RerankRequestSchema>;

/** Starts the server; `url` ends in /v1 like any OpenAI base URL. */
export async function startRerankServer(options: RerankServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const clients = new Map<string, LlmClient>();
  const clientFor = (model: string) => {
    if (!clients.has(model)) {
      clients.set(model, options.createClient?.(model) ?? createOpenAiClient({ baseUrl: options.upstream, model, apiKey: options.apiKey }));
    }
    return clients.get(model)!;
  };
  let requestCount = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = requestPath(request);
    if (request.method === "GET" && path === "/v1/models") {
      return sendJson(response, 200, { object: "list", data: [{ id: options.model, object: "model", owned_by: "rllm-rerank" }] });
    }
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      throw new HttpError(404, `no route ${request.method} ${path}; this server answers POST /v1/chat/completions`);
    }
    const body = parseRequest(RerankRequestSchema, await readJsonBody(request, RERANK_SERVER_MAX_BODY_BYTES));
    refuseUnsupportedFields(body, options.n);
    requestCount += 1;
    try {
      await answer(body, requestCount, response);
    } catch (error) {
      throw upstreamHttpError(error);
    }
  }

  async function answer(body: RerankRequest, requestNumber: number, response: ServerResponse): Promise<void> {
    const model = body.model ?? options.model;
    const client = clientFor(model);
    const sampling: SamplingParams = {
      temperature: body.temperature,
      topP: body.top_p,
      maxTokens: body.max_completion_tokens ?? body.max_tokens,
      stop: typeof body.stop === "string" ? [body.stop] : body.stop,
    };
    const generated = await sampleCandidates(client, body, sampling, options.n);
    const lastUser = [...body.messages].reverse().find((message) => message.role === "user");
    const problem = messageText(lastUser?.content ?? body.messages[body.messages.length - 1]!.content);
    const judge = createLlmJudge({ client, kind: options.judgeKind, sampling: { maxTokens: sampling.maxTokens } });
    const { record, usage: judgeUsage } = await rerankCandidates({
      problem,
      candidates: generated.choices.map((choice) => choice.text),
      judge,
      method: body.rerank?.method ?? options.method,
      config: defaultSelectionConfig(judgeBudget(body.rerank?.max_calls ?? Math.round(options.budget * generated.choices.length), generated.choices.length, options.maxCalls)),
      seed: (options.seed ?? 0) + (body.seed ?? requestNumber),
    });
    const ranked = rankCandidates(record.chosenIndex, record.scores).slice(0, body.n ?? 1);
    const rerank = {
      method: record.method,
      chosenIndex: record.chosenIndex,
      scores: record.scores,
      judgeCalls: record.judgeCalls,
      budget: record.budget,
      candidates: generated.choices.length,
    };
    const promptTokens = generated.promptTokens + judgeUsage.promptTokens;
    const completionTokens = generated.completionTokens + judgeUsage.completionTokens;
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    const headers = { "x-rllm-rerank": JSON.stringify({ ...rerank, scores: rerank.scores.map((score) => Math.round(score * 1e4) / 1e4) }) };
    const id = `chatcmpl-rerank-${requestNumber}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream) {
      // One content chunk per choice, then the finish chunks: the reply only exists once the tournament is over.
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
      const chunk = (choices: object[], extra: object = {}) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
      ranked.forEach((candidate, index) => {
        const delta = { role: "assistant", content: generated.choices[candidate]!.text };
        response.write(chunk([{ index, delta, finish_reason: null }], index === 0 ? { rerank } : {}));
      });
      for (const [index, candidate] of ranked.entries()) response.write(chunk([{ index, delta: {}, finish_reason: generated.choices[candidate]!.finishReason }]));
      if (body.stream_options?.include_usage) response.write(chunk([], { usage }));
      response.end("data: [DONE]\n\n");
      return;
    }
    const choices = ranked.map((candidate, index) => ({
      index,
      message: { role: "assistant", content: generated.choices[candidate]!.text },
      finish_reason: generated.choices[candidate]!.finishReason,
      logprobs: null,
    }));
    sendJson(response, 200, { id, object: "chat.completion", created, model, choices, usage, rerank }, headers);
  }

  const server = await startHttpServer(handle, { host: options.host ?? "127.0.0.1", port: options.port });
  return { url: `${server.origin}/v1`, close: server.close };
}

/** Refuses, with a 400 naming the field, what a reranker cannot answer faithfully instead of silently dropping it. */
function refuseUnsupportedFields(body: RerankRequest, candidates: number): void {
  if (body.logprobs === true) {
    throw new HttpError(400, 'field "logprobs": not supported by the rerank server (it returns the chosen sample, not a distribution over tokens)', "invalid_request_error", "logprobs");
  }
  if ((body.top_logprobs ?? 0) > 0) {
    throw new HttpError(400, 'field "top_logprobs": not supported by the rerank server', "invalid_request_error", "top_logprobs");
  }
  if ((body.n ?? 1) > candidates) {
    throw new HttpError(400, `field "n": ${body.n} is more than the ${candidates} candidates this server samples (rllm serve -n)`, "invalid_request_error", "n");
  }
  if (body.stream_options != null && body.stream !== true) {
    throw new HttpError(400, 'field "stream_options": only allowed when "stream" is true', "invalid_request_error", "stream_options");
  }
}

/**
 * The judge calls a request may spend: what it (or the server's --budget) asks, cut to the server's cap and to what a
 * tournament can use on that many candidates. Cut, not refused: every one of the three is an upper bound, and the
 * smallest honours them all.
 */
function judgeBudget(asked: number, candidates: number, maxCalls: number): number {
  return Math.min(asked, maxCalls, usefulJudgeCalls(candidates));
}

/** Candidate indices best first: the tournament's choice, then the rest by score (ties by index). */
function rankCandidates(chosenIndex: number, scores: readonly number[]): number[] {
  const rest = scores.map((_, index) => index).filter((index) => index !== chosenIndex);
  rest.sort((first, second) => scores[second]! - scores[first]! || first - second);
  return [chosenIndex, ...rest];
}

/** Asks upstream for n choices; servers that ignore `n` are topped up with further calls. */
async function sampleCandidates(
  client: LlmClient,
  body: RerankRequest,
  sampling: SamplingParams,
  count: number,
): Promise<{ choices: ChatChoice[]; promptTokens: number; completionTokens: number }> {
  const choices: ChatChoice[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  while (choices.length < count) {
    const reply = await client.chat({ ...sampling, messages: body.messages, n: count - choices.length });
    if (reply.choices.length === 0) throw new InfraError("upstream returned no choices");
    choices.push(...reply.choices.slice(0, count - choices.length));
    promptTokens += reply.usage.promptTokens;
    completionTokens += reply.usage.completionTokens;
  }
  return { choices, promptTokens, completionTokens };
}
