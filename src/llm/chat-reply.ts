/** A cut-down schema of an OpenAI-compatible chat completion reply: only the fields we use, so API additions break nothing. */
import { z } from "zod";

const ReplyToolCallSchema = z.object({
  id: z.string().default(""),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string().default("") }),
});

export const ChatReplySchema = z.object({
  model: z.string().default(""),
  choices: z
    .array(
      z.object({
        index: z.number().int().default(0),
        message: z.object({
          content: z.string().nullable().default(null),
          tool_calls: z.array(ReplyToolCallSchema).nullable().optional(),
        }),
        finish_reason: z.string().nullable().default(null),
        logprobs: z
          .object({ content: z.array(z.object({ logprob: z.number() })).nullable().optional() })
          .nullable()
          .optional(),
        // vLLM's return_token_ids extension (SGLang returns the same field when asked).
        token_ids: z.array(z.number().int()).nullable().optional(),
      }),
    )
    .min(1),
  prompt_token_ids: z.array(z.number().int()).nullable().optional(),
  usage: z
    .object({
      prompt_tokens: z.number().default(0),
      completion_tokens: z.number().default(0),
      // OpenAI's provider-side prompt cache: these prompt tokens are billed at the cached-input price.
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullable().optional() }).nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type ChatReply = z.infer<typeof ChatReplySchema>;
