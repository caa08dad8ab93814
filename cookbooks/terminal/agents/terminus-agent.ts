/**
 * A Terminus-2 style agent: no system message, one JSON reply per turn (analysis, plan, commands with durations,
 * task_complete), errors answered without running anything, and completion confirmed by a second consecutive
 * task_complete. Each reply's commands go to the episode's terminal as one keystroke batch (tmux where the sandbox
 * has it, see keystroke-terminal.ts), whose screen is the next observation.
 */
import type { EnvironmentAgent } from "rllm-ts/flows";
import type { TerminalAction } from "../terminal-environment.js";
import { parseTerminusResponse } from "./parse-terminus-response.js";

// Terminus-2 keeps the first and last 5,000 bytes of an observation over 10,000.
const observationLimit = 10_000;

function firstPrompt(instruction: string, workdir: string): string {
  return [
    "You are an AI assistant solving a command-line task in a Linux environment. You are given the task, then the",
    "terminal's state after each of your turns. Reply with one JSON object and nothing else:",
    "{",
    '  "analysis": "what you see and what it means",',
    '  "plan": "what you will do next and why",',
    '  "commands": [{"keystrokes": "ls -la\\n", "duration": 0.1}],',
    '  "task_complete": false',
    "}",
    "Each keystrokes string is typed into the shell; end it with \\n to run it. duration is how many seconds to wait",
    "(0.1 for quick commands, longer for builds; never above 60). An empty commands list waits. Set task_complete to",
    "true when the task is done; you will be asked to confirm.",
    "",
    "Task Description:",
    instruction,
    "",
    "Current terminal state:",
    `agent@sandbox:${workdir}$ `,
  ].join("\n");
}

/** The text after cutting it to Terminus-2's observation limit. */
export function limitObservation(text: string): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= observationLimit) return text;
  const half = observationLimit / 2;
  return `${bytes.subarray(0, half).toString()}\n[... output limited to ${observationLimit} bytes; ${bytes.length - observationLimit} interior bytes omitted ...]\n${bytes.subarray(bytes.length - half).toString()}`;
}

/** One episode's Terminus-2 agent. */
export function createTerminusAgent(workdir: string): EnvironmentAgent<string, TerminalAction> {
  let isCompletionPending = false;
  let pendingWarnings: string[] = [];
  return {
    start: (_task, instruction) => [{ role: "user", content: firstPrompt(instruction, workdir) }],
    decide(choice) {
      const reply = parseTerminusResponse(choice.text);
      if ("errors" in reply) {
        isCompletionPending = false;
        const content = `Previous response had parsing errors:\n${reply.errors.map((error) => `ERROR: ${error}`).join("\n")}\n\nPlease fix these issues and provide a proper JSON response.`;
        return { kind: "invalid", feedback: [{ role: "user", content }], label: "parse error" };
      }
      if (reply.isTaskComplete && isCompletionPending) return { kind: "stop", label: "task_complete confirmed" };
      isCompletionPending = reply.isTaskComplete;
      pendingWarnings = [...reply.warnings];
      const action: TerminalAction = { kind: "keystrokes", commands: reply.commands.map((command) => ({ keystrokes: command.keystrokes, durationSec: command.duration })) };
      return { kind: "act", actions: [action], label: reply.isTaskComplete ? "task_complete" : `${reply.commands.length} commands` };
    },
    report(results) {
      const screen = results.map(({ step }) => step.observation).join("\n");
      const parts = [
        ...(pendingWarnings.length > 0 ? [`Previous response had warnings:\n${pendingWarnings.map((warning) => `WARNINGS: ${warning}`).join("\n")}\n`] : []),
        limitObservation(screen),
        ...(isCompletionPending
          ? [
              "\nAre you sure you want to mark the task as complete? Your work will then be graded and you cannot change it any more. " +
                'If so, reply again with "task_complete": true; otherwise continue working.',
            ]
          : []),
      ];
      return [{ role: "user", content: parts.join("\n") }];
    },
  };
}
