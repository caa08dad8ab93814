/** A TraceRecord: one completion call that passed through the gateway, with what the sampler returned for training. */
import { z } from "zod";
import { ChatMessageSchema, ToolCallSchema } from "../core/message.js";

/** One sampled choice of a traced call. */
export const TracedChoiceSchema = z.object({
  text: z.string(),
  toolCalls: z.array(ToolCallSchema),
  finishReason: z.string().optional(),
  completionTokenIds: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
});
export type TracedChoice = z.infer<typeof TracedChoiceSchema>;

/** The two OpenAI endpoints the gateway traces. */
export const TracedEndpointSchema = z.enum(["chat/completions", "completions"]);
export type TracedEndpoint = z.infer<typeof TracedEndpointSchema>;

/** One traced call, as kept in memory and as one line of the trace file. */
export const TraceRecordSchema = z.object({
  traceId: z.string(),
  sessionId: z.string(),
  endpoint: TracedEndpointSchema.default("chat/completions"),
  model: z.string(),
  /** The messages as forwarded upstream (empty for /v1/completions). */
  messages: z.array(ChatMessageSchema),
  /** The /v1/completions prompt, text or token ids. */
  prompt: z.union([z.string(), z.array(z.number().int())]).optional(),
  promptTokenIds: z.array(z.number().int()).optional(),
  choices: z.array(TracedChoiceSchema),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
  /** The policy version that served the call, when the upstream reports one (root `weight_version`). */
  weightVersion: z.union([z.number(), z.string()]).optional(),
  /** Whether the client asked for a stream (the trace is assembled from its chunks). */
  streamed: z.boolean().optional(),
  latencyMs: z.number(),
  /** Milliseconds since the epoch when the reply arrived. */
  timestamp: z.number(),
});
export type TraceRecord = z.infer<typeof TraceRecordSchema>;
