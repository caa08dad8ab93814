/** The bash-tool agent: OpenAI function calling with one `bash` tool; a reply without tool calls ends the episode. */
import type { ChatMessage, ToolCall, ToolDefinition } from "rllm-ts/core";
import type { EnvironmentAgent } from "rllm-ts/flows";
import type { TerminalAction } from "../terminal-environment.js";

const bashTool: ToolDefinition = {
  type: "function",
  function: {
    name: "bash",
    description: "Run a bash command in the task's sandbox (working directory kept per command, files persist). Returns stdout, stderr and the exit code.",
    parameters: { type: "object", properties: { command: { type: "string", description: "The command line to run." } }, required: ["command"] },
  },
};

const systemPrompt = [
  "You solve tasks in a Linux sandbox by running shell commands with the bash tool.",
  "Each call runs in a new shell in the task's working directory: files and background processes persist between calls, a cd or a variable does not.",
  "Inspect before you change things, check your work, and when the task is complete reply with a short summary and no tool call.",
].join("\n");

/** The `command` argument of a bash call, or why it has none. */
export function bashCommandOf(call: ToolCall): string | { error: string } {
  if (call.function.name !== "bash") return { error: `unknown tool ${call.function.name} (only bash exists)` };
  try {
    const args = JSON.parse(call.function.arguments) as { command?: unknown };
    return typeof args.command === "string" && args.command.trim() !== "" ? args.command : { error: 'the bash call needs a non-empty "command" string' };
  } catch {
    return { error: "the bash call's arguments are not JSON" };
  }
}

/** One episode's bash-tool agent. */
export function createBashToolAgent(): EnvironmentAgent<string, TerminalAction> {
  return {
    tools: [bashTool],
    start: (_task, instruction) => [
      { role: "system", content: systemPrompt },
      { role: "user", content: instruction },
    ],
    decide(choice) {
      if (choice.toolCalls.length === 0) return { kind: "stop" };
      const commands = choice.toolCalls.map((call) => ({ call, command: bashCommandOf(call) }));
      if (commands.some((entry) => typeof entry.command !== "string")) {
        // Every call gets its tool message, as the API requires; none of the reply's calls ran.
        const feedback: ChatMessage[] = commands.map(({ call, command }) => ({
          role: "tool",
          tool_call_id: call.id,
          content: typeof command === "string" ? "not run: another call in this reply was invalid" : `error: ${command.error}`,
        }));
        return { kind: "invalid", feedback, label: "invalid tool call" };
      }
      return { kind: "act", actions: commands.map(({ call, command }) => ({ kind: "command", command: command as string, callId: call.id })) };
    },
    report: (results) =>
      results.map(({ action, step }) => ({ role: "tool", tool_call_id: action.kind === "command" ? (action.callId ?? "") : "", content: step.observation })),
  };
}
