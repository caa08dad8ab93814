/** Request bodies the OpenAI-compatible model server accepts (unknown fields are ignored, as vLLM does). */
import { z } from "zod";
import { ChatMessageSchema } from "../../core/message.js";

const SamplingFieldsSchema = z.object({
  model: z.string().optional(),
  n: z.number().int().min(1).max(64).default(1),
  temperature: z.number().min(0).max(2).default(1),
  top_p: z.number().gt(0).max(1).default(1),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(8)]).nullish(),
  seed: z.number().int().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  /** vLLM extension: return the prompt's and each choice's token ids. */
  return_token_ids: z.boolean().nullish(),
});

export const ChatCompletionRequestSchema = SamplingFieldsSchema.extend({
  messages: z.array(ChatMessageSchema).min(1),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

export const CompletionRequestSchema = SamplingFieldsSchema.extend({
  /** Text, token ids, or a one-element list of either. */
  prompt: z.union([z.string(), z.array(z.number().int().min(0)).min(1), z.array(z.string()).length(1), z.array(z.array(z.number().int().min(0)).min(1)).length(1)]),
  /** Legacy completions: how many alternatives to report per token (0 = just the sampled token's logprob). */
  logprobs: z.number().int().min(0).max(20).nullish(),
  echo: z.literal(false).nullish(),
});
export type CompletionRequest = z.infer<typeof CompletionRequestSchema>;

export const TokenizeRequestSchema = z.union([
  z.object({ prompt: z.string(), model: z.string().optional() }),
  z.object({ messages: z.array(ChatMessageSchema).min(1), model: z.string().optional() }),
]);

export const DetokenizeRequestSchema = z.object({ tokens: z.array(z.number().int().min(0)), model: z.string().optional() });
