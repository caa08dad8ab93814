/**
 * The fields of an upstream completion that the gateway reads, as vLLM returns them in a whole reply and in each
 * stream chunk alike: root `prompt_token_ids`, per-choice `token_ids`, chat or legacy logprobs, usage.
 */
import { z } from "zod";

const TokenIdsSchema = z.array(z.number().int()).nullish();

/** The root fields a reply and a stream chunk share (zod shape, spread into each schema). */
export const replyRootFields = {
  model: z.string().optional(),
  prompt_token_ids: TokenIdsSchema,
  weight_version: z.union([z.number(), z.string()]).nullish(),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
};

/** The per-choice fields a reply's choice and a chunk's choice share; the message or delta differs. */
export const replyChoiceFields = {
  index: z.number().int().default(0),
  finish_reason: z.string().nullish(),
  prompt_token_ids: TokenIdsSchema,
  token_ids: TokenIdsSchema,
  /** /v1/completions */
  text: z.string().nullish(),
  logprobs: z
    .object({ content: z.array(z.object({ logprob: z.number() })).nullish(), token_logprobs: z.array(z.number()).nullish() })
    .nullish(),
};

type ChoiceLogprobs = z.infer<typeof replyChoiceFields.logprobs>;

/** A choice's token logprobs: chat `logprobs.content[].logprob`, else legacy `logprobs.token_logprobs`. */
export function choiceLogprobs(logprobs: ChoiceLogprobs): number[] | undefined {
  return logprobs?.content?.map((token) => token.logprob) ?? logprobs?.token_logprobs ?? undefined;
}
