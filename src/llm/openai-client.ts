/** An LlmClient for any OpenAI-compatible endpoint (OpenAI, vLLM, SGLang, Tinker, the embedded model), with retries and error classes. */
import OpenAI from "openai";
import { InfraError } from "../core/errors/infra-error.js";
import { describeConnectionFailure } from "./connection-failure.js";
import { EndpointConfigurationError } from "../core/errors/endpoint-configuration-error.js";
import { ModelError } from "../core/errors/model-error.js";
import { describeIssues } from "../core/errors/input-error.js";
import { ChatReplySchema, type ChatReply } from "./chat-reply.js";
import { createChatCompletionsSender } from "./chat-completions-sender.js";
import type { ChatRequest, ChatResponse, LlmClient } from "../core/llm-client.js";
import {
  backoffDelayMs,
  defaultRetryPolicy,
  isRetryableStatus,
  retryAfterMs,
  type RetryBudget,
  type RetryPolicy,
} from "./retry-policy.js";
import { abortableSleep } from "../core/abortable-sleep.js";

export interface OpenAiClientOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per-request time limit in milliseconds (default 10 minutes: long reasoning replies are slow). */
  requestTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
  /** Retries shared by every request of the run (default: unlimited within each request's own limit). */
  retryBudget?: RetryBudget;
  /** Ask for per-token logprobs (default true; dropped automatically if the server rejects it). */
  requestLogprobs?: boolean;
  /** Ask for vLLM/SGLang `return_token_ids` (default true; dropped automatically if the server rejects it). */
  requestTokenIds?: boolean;
  /** Called with the headers of every reply, errors included (the rate limiter reads x-ratelimit-* from them). */
  onResponseHeaders?: (headers: { get(name: string): string | null }) => void;
  /** Called before each retry, for progress reporting. */
  onRetry?: (event: { status?: number; delayMs: number; attempt: number }) => void;
  /** Injected for tests; Math.random otherwise. */
  random?: () => number;
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Creates an LlmClient for an OpenAI-compatible endpoint. The `openai` SDK holds the endpoint's settings (base URL, key,
 * timeout, headers) and its error classes; the calls go straight over keep-alive node:http (chat-completions-sender.ts),
 * and the SDK's own retries are off: ours classify and budget them.
 */
export function createOpenAiClient(options: OpenAiClientOptions): LlmClient {
  const sdk = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? "not-needed",
    maxRetries: 0,
    timeout: options.requestTimeoutMs ?? 600_000,
  });
  const send = createChatCompletionsSender(sdk);
  const policy = options.retryPolicy ?? defaultRetryPolicy;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  // Optional extensions the server may not know; switched off for the rest of the run when rejected.
  const extensions = {
    logprobs: options.requestLogprobs ?? true,
    tokenIds: options.requestTokenIds ?? true,
  };

  async function sendOnce(request: ChatRequest): Promise<ChatReply> {
    const body: Record<string, unknown> = {
      model: options.model,
      messages: request.messages,
      ...(request.tools?.length ? { tools: request.tools } : {}),
      ...(request.n !== undefined && request.n !== 1 ? { n: request.n } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { top_p: request.topP } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(request.stop?.length ? { stop: request.stop } : {}),
      ...(extensions.logprobs ? { logprobs: true } : {}),
      ...(extensions.tokenIds ? { return_token_ids: true } : {}),
    };
    const { data: raw, headers } = await send(body, request.signal);
    options.onResponseHeaders?.(headers);
    const parsed = ChatReplySchema.safeParse(raw);
    if (!parsed.success) {
      throw new InfraError(`malformed reply from ${options.baseUrl}:\n${describeIssues("reply", undefined, parsed.error)}`);
    }
    return parsed.data;
  }

  async function chat(request: ChatRequest): Promise<ChatResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return toChatResponse(await sendOnce(request), options.model);
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason ?? error;
        if (error instanceof InfraError || error instanceof ModelError) throw error;
        if (dropRejectedExtension(error, extensions)) continue;
        const failure = classify(error);
        if (failure.headers) options.onResponseHeaders?.(failure.headers);
        if (!failure.retryable) throw failure.error;
        if (attempt >= policy.maxRetries || !(options.retryBudget?.take() ?? true)) {
          throw new InfraError(`${failure.error.message} (gave up after ${attempt + 1} attempts)`, failure.status, { cause: error });
        }
        const delayMs = backoffDelayMs(policy, attempt, random, retryAfterMs(failure.headers, Date.now()));
        options.onRetry?.({ status: failure.status, delayMs, attempt: attempt + 1 });
        await sleep(delayMs, request.signal);
      }
    }
  }

  return { model: options.model, chat };
}

interface ClassifiedFailure {
  retryable: boolean;
  status?: number;
  headers?: { get(name: string): string | null };
  error: Error;
}

/** Sorts an SDK error into retryable infra trouble, fatal configuration trouble, or a rejected request. */
function classify(error: unknown): ClassifiedFailure {
  if (error instanceof OpenAI.APIConnectionError) {
    // Connection resets, refused connections and timeouts all land here.
    // The SDK says only "Connection error."; the reason (refused, DNS, reset) is in its causes.
    return { retryable: true, error: new InfraError(`connection failed: ${describeConnectionFailure(error)}`, undefined, { cause: error }) };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    const status = error.status;
    const headers = error.headers as ClassifiedFailure["headers"];
    if (isRetryableStatus(status)) {
      return { retryable: true, status, headers, error: new InfraError(`HTTP ${status}: ${error.message}`, status, { cause: error }) };
    }
    if (status === 401 || status === 403 || status === 404) {
      const hint = status === 404 ? "check --base-url and --model" : "check the API key (--api-key-env)";
      return { retryable: false, status, error: new EndpointConfigurationError(`HTTP ${status}: ${error.message} (${hint})`, status) };
    }
    // 400/422: the server refused this prompt (typically a context grown too long by the model's own output).
    return { retryable: false, status, error: new ModelError(`request rejected with HTTP ${status}: ${error.message}`, { cause: error }) };
  }
  return { retryable: false, error: new InfraError(error instanceof Error ? error.message : String(error), undefined, { cause: error }) };
}

/** A 400 naming logprobs or return_token_ids means the server lacks that extension: stop asking for it. */
function dropRejectedExtension(error: unknown, extensions: { logprobs: boolean; tokenIds: boolean }): boolean {
  if (!(error instanceof OpenAI.APIError) || (error.status !== 400 && error.status !== 422)) return false;
  const message = `${error.message} ${JSON.stringify(error.error ?? "")}`;
  if (extensions.tokenIds && /return_token_ids/.test(message)) {
    extensions.tokenIds = false;
    return true;
  }
  if (extensions.logprobs && /logprobs/.test(message)) {
    extensions.logprobs = false;
    return true;
  }
  return false;
}

function toChatResponse(reply: ChatReply, model: string): ChatResponse {
  return {
    model: reply.model || model,
    promptTokenIds: reply.prompt_token_ids ?? undefined,
    usage: {
      promptTokens: reply.usage?.prompt_tokens ?? 0,
      completionTokens: reply.usage?.completion_tokens ?? 0,
      ...(reply.usage?.prompt_tokens_details?.cached_tokens ? { cachedPromptTokens: reply.usage.prompt_tokens_details.cached_tokens } : {}),
    },
    choices: [...reply.choices]
      .sort((a, b) => a.index - b.index)
      .map((choice) => ({
        text: choice.message.content ?? "",
        toolCalls: (choice.message.tool_calls ?? []).map((call) => ({ ...call, type: "function" as const })),
        finishReason: choice.finish_reason ?? "unknown",
        completionTokenIds: choice.token_ids ?? undefined,
        logprobs: choice.logprobs?.content?.map((token) => token.logprob) ?? undefined,
      })),
  };
}
