/**
 * Tool calls in the Hermes/Qwen format: `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks in the completion
 * text. The blocks become OpenAI tool calls; the text around them is the message content.
 */
import type { ToolCall } from "../../core/message.js";

const TOOL_CALL = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

/** The content without tool-call blocks, and the calls in order; a block that is not `{name, arguments}` JSON stays in the content. */
export function parseToolCalls(text: string, idPrefix: string): { content: string; toolCalls: ToolCall[] } {
  const toolCalls: ToolCall[] = [];
  const content = text.replace(TOOL_CALL, (block, json: string) => {
    let call: unknown;
    try {
      call = JSON.parse(json);
    } catch {
      return block;
    }
    if (typeof call !== "object" || call === null || typeof (call as { name?: unknown }).name !== "string") return block;
    const { name, arguments: args } = call as { name: string; arguments?: unknown };
    toolCalls.push({
      id: `${idPrefix}-${toolCalls.length}`,
      type: "function",
      function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) },
    });
    return "";
  });
  return { content: content.trim(), toolCalls };
}
