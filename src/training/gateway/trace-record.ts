/** A TraceRecord: one chat call that passed through the gateway, with what the sampler returned for training. */
import type { ChatMessage, ToolCall } from "../../core/message.js";

/** One sampled choice of a traced call. */
export interface TracedChoice {
  text: string;
  toolCalls: ToolCall[];
  finishReason?: string;
  completionTokenIds?: number[];
  logprobs?: number[];
}

export interface TraceRecord {
  traceId: string;
  sessionId: string;
  model: string;
  /** The messages as forwarded upstream. */
  messages: ChatMessage[];
  promptTokenIds?: number[];
  choices: TracedChoice[];
  usage: { promptTokens: number; completionTokens: number };
  /** The policy version that served the call, when the upstream reports one (root `weight_version`). */
  weightVersion?: number | string;
  latencyMs: number;
  /** Milliseconds since the epoch when the reply arrived. */
  timestamp: number;
}
