/** An OpenAI-compatible server that samples n candidates upstream, reranks them by tournament and answers with the winner. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { describeIssues } from "../core/errors/input-error.js";
import { InfraError } from "../core/errors/infra-error.js";
import { ChatMessageSchema, messageText } from "../core/message.js";
import type { ChatChoice, LlmClient, SamplingParams } from "../core/llm-client.js";
import { createOpenAiClient } from "../llm/openai-client.js";
import type { JudgeKind } from "./judge-prompts.js";
import { createLlmJudge } from "./llm-judge.js";
import { rerankCandidates } from "./rerank-candidates.js";
import type { SelectionMethod } from "./selection-methods.js";
import { defaultSelectionConfig } from "./selection-methods.js";

export interface RerankServerOptions {
  /** Base URL of the OpenAI-compatible server that generates and judges, e.g. http://localhost:8000/v1. */
  upstream: string;
  /** Model name sent upstream when the request names none. */
  model: string;
  apiKey?: string;
  /** Candidates sampled per request. */
  n: number;
  /** Judge budget as a multiple of n. */
  budget: number;
  method: SelectionMethod;
  judgeKind: JudgeKind;
  port: number;
  host?: string;
  /** Base seed of the pairing; a request's own `seed` is added to it. */
  seed?: number;
  /** Builds the upstream client (tests inject one); defaults to the retrying OpenAI client. */
  createClient?: (model: string) => LlmClient;
}

/** The subset of a chat-completions request the server reads; other fields are ignored. */
const RerankRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(ChatMessageSchema).min(1),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  stream: z.boolean().optional(),
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

  const server = http.createServer(async (request, response) => {
    try {
      const path = (request.url ?? "").split("?")[0];
      if (request.method === "GET" && path === "/v1/models") {
        return sendJson(response, 200, { object: "list", data: [{ id: options.model, object: "model", owned_by: "rllm-rerank" }] });
      }
      if (request.method !== "POST" || path !== "/v1/chat/completions") {
        return sendError(response, 404, `no route ${request.method} ${path}; this server answers POST /v1/chat/completions`);
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      let raw: unknown;
      try {
        raw = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return sendError(response, 400, "Malformed JSON in request body");
      }
      const parsed = RerankRequestSchema.safeParse(raw);
      if (!parsed.success) return sendError(response, 400, describeIssues("request body", undefined, parsed.error));
      requestCount += 1;
      await answer(parsed.data, requestCount, response);
    } catch (error) {
      const status = error instanceof InfraError ? 502 : 500;
      if (!response.headersSent) sendError(response, status, error instanceof Error ? error.message : String(error));
      else response.end();
    }
  });

  async function answer(body: RerankRequest, requestNumber: number, response: http.ServerResponse): Promise<void> {
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
      method: options.method,
      config: defaultSelectionConfig(Math.round(options.budget * generated.choices.length)),
      seed: (options.seed ?? 0) + (body.seed ?? requestNumber),
    });
    const winner = generated.choices[record.chosenIndex]!;
    const rerank = {
      method: record.method,
      chosenIndex: record.chosenIndex,
      scores: record.scores,
      judgeCalls: record.judgeCalls,
      candidates: generated.choices.length,
    };
    const promptTokens = generated.promptTokens + judgeUsage.promptTokens;
    const completionTokens = generated.completionTokens + judgeUsage.completionTokens;
    const headers = { "x-rllm-rerank": JSON.stringify({ ...rerank, scores: rerank.scores.map((score) => Math.round(score * 1e4) / 1e4) }) };
    const id = `chatcmpl-rerank-${requestNumber}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream) {
      // One content chunk, then the finish chunk: the reply only exists once the tournament is over.
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
      const chunk = (delta: object, finishReason: string | null, extra: object = {}) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
      response.write(chunk({ role: "assistant", content: winner.text }, null, { rerank }));
      response.write(chunk({}, winner.finishReason));
      response.end("data: [DONE]\n\n");
      return;
    }
    sendJson(
      response,
      200,
      {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: winner.text }, finish_reason: winner.finishReason }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
        rerank,
      },
      headers,
    );
  }

  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "127.0.0.1", resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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

function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function sendError(response: http.ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", code: status } });
}
