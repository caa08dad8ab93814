/** The one LLM interface that flows, judges and the trainer depend on (never a vendor SDK directly). */
import type { ChatMessage, ToolCall, ToolDefinition } from "./message.js";
import type { TokenUsage } from "./step.js";

/** Sampling parameters of a run; undefined fields are left to the server's defaults. */
export interface SamplingParams {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  stop?: string[];
}

export interface ChatRequest extends SamplingParams {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** Number of choices to sample for this prompt (1 if absent). */
  n?: number;
  signal?: AbortSignal;
}

/** One sampled choice. Token ids and logprobs are present only when the server returned them. */
export interface ChatChoice {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string;
  completionTokenIds?: number[];
  logprobs?: number[];
}

export interface ChatResponse {
  choices: ChatChoice[];
  promptTokenIds?: number[];
  usage: TokenUsage;
  model: string;
  /** True when the reply came from the local response cache, not the endpoint. */
  cached?: boolean;
}

/** A chat-completions client: the `do` prefix marks the raw call that wrappers (retries, recording) build on. */
export interface LlmClient {
  readonly model: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
}
