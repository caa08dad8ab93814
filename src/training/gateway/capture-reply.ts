/**
 * Reads the training data out of an upstream completion reply the way vLLM returns it (root `prompt_token_ids`,
 * per-choice `token_ids`, chat `logprobs.content[].logprob` or legacy `logprobs.token_logprobs`), and strips the
 * server-only fields before the client sees it.
 */
import { z } from "zod";
import type { TracedChoice, TracedEndpoint } from "./trace-record.js";

const TokenIdsSchema = z.array(z.number().int()).nullish();

// Only the fields the gateway reads; everything else passes through untouched.
const UpstreamReplySchema = z.object({
  model: z.string().optional(),
  prompt_token_ids: TokenIdsSchema,
  weight_version: z.union([z.number(), z.string()]).nullish(),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
  choices: z.array(
    z.object({
      index: z.number().int().default(0),
      finish_reason: z.string().nullish(),
      prompt_token_ids: TokenIdsSchema,
      token_ids: TokenIdsSchema,
      /** /v1/completions */
      text: z.string().nullish(),
      message: z
        .object({
          content: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) }))
            .nullish(),
        })
        .default({}),
      logprobs: z
        .object({
          content: z.array(z.object({ logprob: z.number() })).nullish(),
          token_logprobs: z.array(z.number()).nullish(),
        })
        .nullish(),
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
      logprobs: choice.logprobs?.content?.map((token) => token.logprob) ?? choice.logprobs?.token_logprobs ?? undefined,
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
