/** The chat row `rllm sft` trains on: a conversation ending in the assistant turn to learn, and the sampler's token ids when known. */
import { z } from "zod";
import { RowIdSchema } from "../core/dataset.js";

/** One message of a training conversation (text only: the tokenizers train on text). */
export const SftMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
});
export type SftMessage = z.infer<typeof SftMessageSchema>;

/** One model call as the sampler saw it: prompt and completion token ids, never retokenised. */
export const SampledCallSchema = z.object({
  promptTokenIds: z.array(z.number().int().nonnegative()).min(1),
  completionTokenIds: z.array(z.number().int().nonnegative()).min(1),
});
export type SampledCall = z.infer<typeof SampledCallSchema>;

/** A training row; other fields (question, ground_truth...) are kept, so a curated solver row is also an eval task. */
export const SftRowSchema = z
  .object({
    id: RowIdSchema,
    messages: z
      .array(SftMessageSchema)
      .min(2)
      .refine((messages) => messages.at(-1)!.role === "assistant", "the last message must be the assistant's (the turn to learn)"),
    /** Each assistant turn's model call, in order, when the row was curated from episodes that recorded token ids. */
    sampled: z.array(SampledCallSchema).min(1).optional(),
  })
  .passthrough();
export type SftRow = z.infer<typeof SftRowSchema>;
