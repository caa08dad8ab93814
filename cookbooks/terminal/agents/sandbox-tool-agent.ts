/**
 * An LLM-in-Sandbox style agent: tools `execute_bash`, `str_replace_editor` (view, create, str_replace, insert) and
 * `submit`. The editor runs inside the sandbox as a short python3 program, so it sees exactly what the agent's shell sees.
 */
import type { ChatMessage, ToolCall, ToolDefinition } from "rllm-ts/core";
import type { EnvironmentAgent } from "rllm-ts/flows";
import type { TerminalAction } from "../terminal-environment.js";

const tools: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "execute_bash",
      description: "Run a bash command in the sandbox and return its output and exit code.",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
  {
    type: "function",
    function: {
      name: "str_replace_editor",
      description: "View, create or edit a file: view (with line numbers), create (file_text), str_replace (old_str must occur exactly once → new_str), insert (new_str after insert_line).",
      parameters: {
        type: "object",
        properties: {
          command: { type: "string", enum: ["view", "create", "str_replace", "insert"] },
          path: { type: "string" },
          file_text: { type: "string" },
          old_str: { type: "string" },
          new_str: { type: "string" },
          insert_line: { type: "integer" },
        },
        required: ["command", "path"],
      },
    },
  },
  { type: "function", function: { name: "submit", description: "Finish: your work in the sandbox is graded as it is now.", parameters: { type: "object", properties: {} } } },
];

const systemPrompt = [
  "You work inside a Linux sandbox to solve the task below. Write and run code to get your results; do not guess or hard-code answers.",
  "Tools: execute_bash runs a command, str_replace_editor views and edits files, submit ends the episode and has your work graded.",
].join("\n");

// Reads its arguments (JSON) from $RLLM_EDITOR_ARGS; prints the result or an error (exit 1).
const editorProgram = String.raw`
import json, os, sys
a = json.loads(os.environ["RLLM_EDITOR_ARGS"])
p, c = a["path"], a["command"]
def fail(m):
    print("error: " + m); sys.exit(1)
if c == "view":
    if os.path.isdir(p):
        print("\n".join(sorted(os.listdir(p)))); sys.exit(0)
    for n, line in enumerate(open(p).read().split("\n"), 1): print(f"{n:6}\t{line}")
elif c == "create":
    os.makedirs(os.path.dirname(os.path.abspath(p)), exist_ok=True)
    open(p, "w").write(a.get("file_text", "")); print(f"created {p}")
elif c == "str_replace":
    t = open(p).read(); o = a.get("old_str", "")
    k = t.count(o) if o else 0
    if k != 1: fail(f"old_str occurs {k} times in {p}; it must occur exactly once")
    open(p, "w").write(t.replace(o, a.get("new_str", ""))); print(f"edited {p}")
elif c == "insert":
    lines = open(p).read().split("\n"); n = int(a.get("insert_line", 0))
    if n < 0 or n > len(lines): fail(f"insert_line {n} is outside 0..{len(lines)}")
    lines[n:n] = a.get("new_str", "").split("\n"); open(p, "w").write("\n".join(lines)); print(f"inserted into {p}")
else:
    fail("unknown command " + c)
`;

/** The sandbox action of one tool call, "submit", or an error for the model. */
function actionOf(call: ToolCall): TerminalAction | "submit" | { error: string } {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.function.arguments || "{}") as Record<string, unknown>;
  } catch {
    return { error: "arguments are not JSON" };
  }
  if (call.function.name === "submit") return "submit";
  if (call.function.name === "execute_bash") {
    return typeof args.command === "string" ? { kind: "command", command: args.command, callId: call.id } : { error: 'execute_bash needs a "command" string' };
  }
  if (call.function.name === "str_replace_editor") {
    if (typeof args.command !== "string" || typeof args.path !== "string") return { error: 'str_replace_editor needs "command" and "path"' };
    return { kind: "command", command: `python3 -c '${editorProgram.replaceAll("'", "'\\''")}'`, env: { RLLM_EDITOR_ARGS: JSON.stringify(args) }, callId: call.id };
  }
  return { error: `unknown tool ${call.function.name}` };
}

/** One episode's agent; `maxTurns` lets it warn the model two turns before the end. */
export function createSandboxToolAgent(maxTurns: number): EnvironmentAgent<string, TerminalAction> {
  return {
    tools,
    start: (_task, instruction) => [
      { role: "system", content: systemPrompt },
      { role: "user", content: instruction },
    ],
    decide(choice) {
      if (choice.toolCalls.length === 0) return { kind: "invalid", feedback: [{ role: "user", content: "Use a tool to act; call submit when you are done." }], label: "no tool call" };
      const parsed = choice.toolCalls.map((call) => ({ call, action: actionOf(call) }));
      const errors = parsed.filter(({ action }) => typeof action === "object" && "error" in action);
      if (errors.length > 0) {
        const feedback: ChatMessage[] = parsed.map(({ call, action }) => ({
          role: "tool",
          tool_call_id: call.id,
          content: typeof action === "object" && "error" in action ? `error: ${action.error}` : "not run: another call in this reply was invalid",
        }));
        return { kind: "invalid", feedback, label: "invalid tool call" };
      }
      const actions = parsed.map(({ action }) => action).filter((action): action is TerminalAction => action !== "submit");
      const isSubmitted = parsed.some(({ action }) => action === "submit");
      return { kind: "act", actions, stopAfter: isSubmitted, label: isSubmitted ? "submit" : `${actions.length} tool calls` };
    },
    report(results, turn) {
      const messages: ChatMessage[] = results.map(({ action, step }) => ({ role: "tool", tool_call_id: action.kind === "command" ? (action.callId ?? "") : "", content: step.observation }));
      if (turn >= maxTurns - 2) messages.push({ role: "user", content: `Only ${maxTurns - turn} turns are left: finish and call submit now.` });
      return messages;
    },
  };
}
