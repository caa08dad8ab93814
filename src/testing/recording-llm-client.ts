/** A fake LlmClient for tests: it answers from a script and records every request, so a test can check what a flow sent. */
import type { ChatRequest, ChatResponse, LlmClient } from "../core/llm-client.js";

/** What the client answers: one text for every call, texts in call order, or a function of the request. */
export type RecordingReply =
  | string
  | readonly string[]
  | ((request: ChatRequest, callIndex: number) => string | ChatResponse | Promise<string | ChatResponse>);

/** Options of `createRecordingLlmClient`. */
export interface RecordingLlmClientOptions {
  reply: RecordingReply;
  /** The model name the client reports (default "recording"). */
  model?: string;
}

/** An LlmClient that keeps every request it was sent, in order. */
export interface RecordingLlmClient extends LlmClient {
  readonly calls: readonly ChatRequest[];
}

/** A scripted LlmClient; a text reply becomes one choice with finish reason "stop" and zero token counts. */
export function createRecordingLlmClient(options: RecordingLlmClientOptions): RecordingLlmClient {
  const model = options.model ?? "recording";
  const calls: ChatRequest[] = [];
  return {
    model,
    calls,
    async chat(request) {
      const callIndex = calls.length;
      calls.push(request);
      const reply = await replyFor(options.reply, request, callIndex);
      return typeof reply === "string" ? textResponse(reply, model) : reply;
    },
  };
}

async function replyFor(reply: RecordingReply, request: ChatRequest, callIndex: number): Promise<string | ChatResponse> {
  if (typeof reply === "string") return reply;
  if (typeof reply === "function") return reply(request, callIndex);
  const text = reply[callIndex];
  if (text === undefined) throw new Error(`recording client: call ${callIndex + 1} has no scripted reply (${reply.length} given)`);
  return text;
}

function textResponse(text: string, model: string): ChatResponse {
  return { choices: [{ text, toolCalls: [], finishReason: "stop" }], usage: { promptTokens: 0, completionTokens: 0 }, model };
}
