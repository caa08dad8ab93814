/** A scripted OpenAI-compatible server for tests: answers from a function, injects 429/500/slow replies, returns token ids and logprobs. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  path: string;
  body: Record<string, any>;
  /** The usage the reply reported (a 200 reply only): what a test hand-computes costs from. */
  usage?: { promptTokens: number; completionTokens: number; cachedPromptTokens: number };
}

/** What the script answers to one request. */
export interface ScriptedReply {
  /** Text of each choice; a function of the choice index for n > 1. */
  text?: string | ((choiceIndex: number) => string);
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** A non-200 status with an OpenAI-shaped error body. */
  status?: number;
  /** Message of the error body (default "scripted <status>"). */
  errorMessage?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Close the socket without answering (a connection reset). */
  reset?: boolean;
  /** Reported as usage.prompt_tokens_details.cached_tokens (prompt tokens served from the provider's prompt cache). */
  cachedPromptTokens?: number;
}

export type Script = (body: Record<string, any>, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The last user message's text: what most scripts key their answer on. */
export function lastUserText(body: Record<string, any>): string {
  const messages: any[] = body.messages ?? [];
  const last = [...messages].reverse().find((message) => message.role === "user");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return (last.content ?? []).map((block: any) => block.text ?? "").join("");
}

/** FNV-1a over the text: a stable 32-bit key, so a script can answer from a request's content, not its arrival order. */
export function stringHash(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  return hash;
}

// Character codes stand in for a tokenizer: deterministic and easy to check.
const tokenize = (text: string) => [...text].map((character) => character.codePointAt(0)!);

/** Starts the server on 127.0.0.1 at a random port. */
export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let calls = 0;
  const server = http.createServer(async (request, response) => {
    // The CLI's pre-flight check lists the models first: an empty list passes it without a script call or a record.
    if (request.method === "GET" && request.url?.endsWith("/models")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [] }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
    const recorded: RecordedRequest = { path: request.url ?? "", body };
    requests.push(recorded);
    const reply = await script(body, calls++);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.reset) {
      request.socket.destroy();
      return;
    }
    const headers = { "content-type": "application/json", ...reply.headers };
    if (reply.status && reply.status !== 200) {
      response.writeHead(reply.status, headers);
      response.end(JSON.stringify({ error: { message: reply.errorMessage ?? `scripted ${reply.status}`, type: "scripted", code: reply.status } }));
      return;
    }
    response.writeHead(200, headers);
    const reply200 = completion(body, reply);
    recorded.usage = { promptTokens: reply200.usage.prompt_tokens, completionTokens: reply200.usage.completion_tokens, cachedPromptTokens: reply.cachedPromptTokens ?? 0 };
    response.end(JSON.stringify(reply200));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function completion(body: Record<string, any>, reply: ScriptedReply) {
  const count = body.n ?? 1;
  const promptText = (body.messages ?? []).map((message: any) => JSON.stringify(message.content)).join("\n");
  const choices = Array.from({ length: count }, (_, index) => {
    const text = typeof reply.text === "function" ? reply.text(index) : (reply.text ?? "");
    const ids = tokenize(text);
    return {
      index,
      message: {
        role: "assistant",
        content: text,
        ...(reply.toolCalls
          ? { tool_calls: reply.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) }
          : {}),
      },
      finish_reason: reply.toolCalls ? "tool_calls" : "stop",
      ...(body.logprobs ? { logprobs: { content: ids.map((id) => ({ token: String.fromCodePoint(id), logprob: -0.5, bytes: null, top_logprobs: [] })) } } : {}),
      ...(body.return_token_ids ? { token_ids: ids } : {}),
    };
  });
  const completionTokens = choices.reduce((sum, choice) => sum + tokenize(choice.message.content).length, 0);
  return {
    id: "chatcmpl-scripted",
    object: "chat.completion",
    created: 0,
    model: body.model ?? "scripted",
    choices,
    ...(body.return_token_ids ? { prompt_token_ids: tokenize(promptText) } : {}),
    usage: {
      prompt_tokens: tokenize(promptText).length,
      completion_tokens: completionTokens,
      total_tokens: 0,
      ...(reply.cachedPromptTokens ? { prompt_tokens_details: { cached_tokens: reply.cachedPromptTokens } } : {}),
    },
  };
}
