import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../../../src/llm/tinker/parse-tool-calls.js";

describe("parseToolCalls (Hermes/Qwen <tool_call>)", () => {
  it("turns each block into an OpenAI tool call and keeps the text around them", () => {
    const text = 'Let me look.\n<tool_call>\n{"name": "sql", "arguments": {"query": "SELECT 1"}}\n</tool_call>\n<tool_call>{"name":"calc","arguments":"{\\"x\\":2}"}</tool_call>';
    expect(parseToolCalls(text, "c")).toEqual({
      content: "Let me look.",
      toolCalls: [
        { id: "c-0", type: "function", function: { name: "sql", arguments: '{"query":"SELECT 1"}' } },
        { id: "c-1", type: "function", function: { name: "calc", arguments: '{"x":2}' } },
      ],
    });
  });

  it("leaves a block that is not {name, arguments} JSON in the content", () => {
    expect(parseToolCalls("<tool_call>not json</tool_call>", "c")).toEqual({ content: "<tool_call>not json</tool_call>", toolCalls: [] });
  });
});
