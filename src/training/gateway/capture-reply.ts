/**
 * Reads the training data out of an upstream chat reply the way vLLM returns it (root `prompt_token_ids`,
 * per-choice `token_ids`, `logprobs.content[].logprob`), and strips the server-only fields before the client sees it.
 */
import { z } from "zod";
import type { TracedChoice } from "./trace-record.js";

// Only the fields the gateway reads; everything else passes through untouched.
const UpstreamReplySchema = z.object({
  model: z.string().optional(),
  prompt_token_ids: z.array(z.number().int()).nullish(),
  weight_version: z.union([z.number(), z.string()]).nullish(),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
  choices: z.array(
    z.object({
      index: z.number().int().default(0),
      finish_reason: z.string().nullish(),
      prompt_token_ids: z.array(z.number().int()).nullish(),
      token_ids: z.array(z.number().int()).nullish(),
      message: z
        .object({
          content: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) }))
            .nullish(),
        })
        .default({}),
      logprobs: z.object({ content: z.array(z.object({ logprob: z.number() })).nullish() }).nullish(),
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

/** Parses the reply's training fields; a reply that is not a chat completion gives a zod error. */
export function captureReply(reply: unknown): CapturedReply {
  const parsed = UpstreamReplySchema.parse(reply);
  const choices = [...parsed.choices].sort((a, b) => a.index - b.index);
  return {
    model: parsed.model,
    // vLLM puts prompt ids at the root; some servers put them on the first choice.
    promptTokenIds: parsed.prompt_token_ids ?? choices[0]?.prompt_token_ids ?? undefined,
    weightVersion: parsed.weight_version ?? undefined,
    usage: {
      promptTokens: parsed.usage?.prompt_tokens ?? 0,
      completionTokens: parsed.usage?.completion_tokens ?? 0,
    },
    choices: choices.map((choice) => ({
      text: choice.message.content ?? "",
      toolCalls: (choice.message.tool_calls ?? []).map((call) => ({ ...call, type: "function" as const })),
      finishReason: choice.finish_reason ?? undefined,
      completionTokenIds: choice.token_ids ?? undefined,
      logprobs: choice.logprobs?.content?.map((token) => token.logprob) ?? undefined,
    })),
  };
}

const SERVER_ROOT_FIELDS = ["prompt_token_ids", "prompt_logprobs", "kv_transfer_params", "weight_version"];
const SERVER_CHOICE_FIELDS = ["token_ids", "prompt_token_ids", "stop_reason", "routing_matrices"];

/** A copy of the reply without vLLM's server-only fields, and without logprobs the client did not ask for. */
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
