/** A Step: one model call of a trajectory, with what training needs (token ids, per-token logprobs). */
import { z } from "zod";
import { ChatMessageSchema, ToolCallSchema } from "./message.js";

export const TokenUsageSchema = z.object({
  promptTokens: z.number().int().nonnegative().default(0),
  completionTokens: z.number().int().nonnegative().default(0),
  /** Prompt tokens the provider served from its own prompt cache (priced at the cached-input rate). */
  cachedPromptTokens: z.number().int().nonnegative().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const StepSchema = z.object({
  /** The messages sent to the model for this call. */
  input: z.array(ChatMessageSchema),
  /** The model's reply text. */
  output: z.string(),
  toolCalls: z.array(ToolCallSchema).default([]),
  /** Token ids of the prompt as the sampler saw it (absent when the server does not return them). */
  promptTokenIds: z.array(z.number().int()).optional(),
  completionTokenIds: z.array(z.number().int()).optional(),
  /** Log-probability of each completion token, aligned with completionTokenIds. */
  logprobs: z.array(z.number()).optional(),
  finishReason: z.string().optional(),
  /** True when the reply came from the local response cache (no endpoint call, no cost). */
  cached: z.boolean().optional(),
  usage: TokenUsageSchema.default({ promptTokens: 0, completionTokens: 0 }),
  /**
   * The environment's reward for this step alone (environmentFlow sums it per turn; 0 in a one-call flow). A record of
   * what the environment said, never a training signal: the reward a trainer reads is the trajectory's.
   */
  reward: z.number().default(0),
  info: z.record(z.string(), z.unknown()).default({}),
});
export type Step = z.infer<typeof StepSchema>;
