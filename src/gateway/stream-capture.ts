/**
 * StreamCapture: assembles the training data of a streamed completion from its chunks (content or text deltas,
 * tool-call fragments, token ids and logprobs as vLLM streams them per chunk, the usage chunk) into a CapturedReply.
 */
import { z } from "zod";
import type { ToolCall } from "../core/message.js";
import type { CapturedReply } from "./capture-reply.js";
import type { TracedEndpoint } from "./trace-record.js";
import { choiceLogprobs, replyChoiceFields, replyRootFields } from "./upstream-reply-fields.js";

// Only the fields the capture reads; a chunk without them adds nothing.
const ChunkSchema = z.object({
  ...replyRootFields,
  choices: z
    .array(
      z.object({
        ...replyChoiceFields,
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().default(0),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
      }),
    )
    .default([]),
});

interface ChoiceParts {
  text: string;
  toolCalls: Map<number, { id: string; name: string; arguments: string }>;
  finishReason?: string;
  tokenIds?: number[];
  logprobs?: number[];
}

/** Accumulates one streamed completion's chunks into the reply the gateway records. */
export class StreamCapture {
  private model?: string;
  private promptTokenIds?: number[];
  private weightVersion?: number | string;
  private usage?: { promptTokens: number; completionTokens: number };
  private readonly choices = new Map<number, ChoiceParts>();

  constructor(private readonly endpoint: TracedEndpoint) {}

  /** Takes one parsed `data:` chunk; chunks that are not completion chunks are ignored. */
  add(chunk: unknown): void {
    const parsed = ChunkSchema.safeParse(chunk);
    if (!parsed.success) return;
    const data = parsed.data;
    this.model ??= data.model;
    this.promptTokenIds ??= data.prompt_token_ids ?? undefined;
    this.weightVersion ??= data.weight_version ?? undefined;
    if (data.usage) this.usage = { promptTokens: data.usage.prompt_tokens ?? 0, completionTokens: data.usage.completion_tokens ?? 0 };
    for (const choice of data.choices) {
      const parts = this.parts(choice.index);
      this.promptTokenIds ??= choice.prompt_token_ids ?? undefined;
      parts.text += (this.endpoint === "completions" ? choice.text : choice.delta?.content) ?? "";
      if (choice.finish_reason) parts.finishReason = choice.finish_reason;
      if (choice.token_ids) parts.tokenIds = [...(parts.tokenIds ?? []), ...choice.token_ids];
      const logprobs = choiceLogprobs(choice.logprobs);
      if (logprobs) parts.logprobs = [...(parts.logprobs ?? []), ...logprobs];
      for (const call of choice.delta?.tool_calls ?? []) {
        const assembled = parts.toolCalls.get(call.index) ?? { id: "", name: "", arguments: "" };
        assembled.id ||= call.id ?? "";
        assembled.name += call.function?.name ?? "";
        assembled.arguments += call.function?.arguments ?? "";
        parts.toolCalls.set(call.index, assembled);
      }
    }
  }

  /** The assembled reply; usage falls back to token counts when the stream carried no usage chunk. */
  result(): CapturedReply {
    const indices = [...this.choices.keys()].sort((a, b) => a - b);
    const choices = indices.map((index) => {
      const parts = this.choices.get(index)!;
      const toolCalls: ToolCall[] = [...parts.toolCalls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, call]) => ({ id: call.id, type: "function" as const, function: { name: call.name, arguments: call.arguments } }));
      return { text: parts.text, toolCalls, finishReason: parts.finishReason, completionTokenIds: parts.tokenIds, logprobs: parts.logprobs };
    });
    const completionTokens = choices.reduce((total, choice) => total + (choice.completionTokenIds?.length ?? 0), 0);
    return {
      model: this.model,
      promptTokenIds: this.promptTokenIds,
      weightVersion: this.weightVersion,
      usage: this.usage ?? { promptTokens: this.promptTokenIds?.length ?? 0, completionTokens },
      choices,
    };
  }

  private parts(index: number): ChoiceParts {
    let parts = this.choices.get(index);
    if (!parts) {
      parts = { text: "", toolCalls: new Map() };
      this.choices.set(index, parts);
    }
    return parts;
  }
}
