/** Chat messages in the OpenAI shape: text or multimodal content blocks, tool calls and tool results. */
import { z } from "zod";

export const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ImageBlockSchema = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string(), detail: z.enum(["auto", "low", "high"]).optional() }),
});
export const ContentBlockSchema = z.discriminatedUnion("type", [TextBlockSchema, ImageBlockSchema]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

export const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const ChatMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(ContentBlockSchema), z.null()]),
  name: z.string().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A tool offered to the model with OpenAI function calling; `parameters` is a JSON schema. */
export const ToolDefinitionSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/** The plain text of a message's content, with image blocks left out. */
export function messageText(content: ChatMessage["content"]): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
