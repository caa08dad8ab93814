/**
 * Reads the training data out of an upstream completion reply the way vLLM returns it (root `prompt_token_ids`,
 * per-choice `token_ids`, chat `logprobs.content[].logprob` or legacy `logprobs.token_logprobs`), and strips the
 * server-only fields before the client sees it.
 */
import { z } from "zod";
import type { TracedChoice, TracedEndpoint } from "./trace-record.js";
import { choiceLogprobs, replyChoiceFields, replyRootFields } from "./upstream-reply-fields.js";

// Only the fields the gateway reads; everything else passes through untouched.
const UpstreamReplySchema = z.object({
  ...replyRootFields,
  choices: z.array(
    z.object({
      ...replyChoiceFields,
      message: z
        .object({
          content: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) }))
            .nullish(),
        })
        .default({}),
    }),
  ),
});

/** What the gateway keeps of one reply. */
export interface CapturedReply {
  model?: string;
  promptTokenIds?: number[];
  choices: TracedChoice[];
  usage: { promptTokens: number; completionTokens: number };
  weightVersion?: number | string;
}

/** Parses the reply's training fields; a reply that is not a completion of `endpoint` gives a zod error. */
export function captureReply(reply: unknown, endpoint: TracedEndpoint = "chat/completions"): CapturedReply {
  const parsed = UpstreamReplySchema.parse(reply);
  const choices = [...parsed.choices].sort((a, b) => a.index - b.index);
  return {
    model: parsed.model,
    // vLLM puts chat prompt ids at the root and completion prompt ids on each choice.
    promptTokenIds: parsed.prompt_token_ids ?? choices[0]?.prompt_token_ids ?? undefined,
    weightVersion: parsed.weight_version ?? undefined,
    usage: {
      promptTokens: parsed.usage?.prompt_tokens ?? 0,
      completionTokens: parsed.usage?.completion_tokens ?? 0,
    },
    choices: choices.map((choice) => ({
      text: (endpoint === "completions" ? choice.text : choice.message.content) ?? "",
      toolCalls: (choice.message.tool_calls ?? []).map((call) => ({ ...call, type: "function" as const })),
      finishReason: choice.finish_reason ?? undefined,
      completionTokenIds: choice.token_ids ?? undefined,
      logprobs: choiceLogprobs(choice.logprobs),
    })),
  };
}

const SERVER_ROOT_FIELDS = ["prompt_token_ids", "prompt_logprobs", "kv_transfer_params", "weight_version"];
const SERVER_CHOICE_FIELDS = ["token_ids", "prompt_token_ids", "stop_reason", "routing_matrices"];

/** A copy of the reply (or stream chunk) without vLLM's server-only fields, and without logprobs the client did not ask for. */
export function stripServerFields(reply: Record<string, unknown>, stripLogprobs: boolean): Record<string, unknown> {
  const stripped: Record<string, unknown> = { ...reply };
  for (const field of SERVER_ROOT_FIELDS) delete stripped[field];
  if (Array.isArray(reply.choices)) {
    stripped.choices = reply.choices.map((choice: Record<string, unknown>) => {
      const copy = { ...choice };
      for (const field of SERVER_CHOICE_FIELDS) delete copy[field];
      if (stripLogprobs) copy.logprobs = null;
      return copy;
    });
  }
  return stripped;
}
