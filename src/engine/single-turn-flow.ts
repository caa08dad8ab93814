/** The agent flow most cookbooks share: one prompt, one model call, one `solver` step. */
import type { AgentFlow } from "../core/cookbook.js";
import type { ChatMessage } from "../core/message.js";
import type { Task } from "../core/task.js";
import { stepFromChat } from "../llm/step-from-chat.js";

/** A flow that sends `buildMessages(task)` once and returns the reply as the solver trajectory. */
export function singleTurnFlow(buildMessages: (task: Task) => ChatMessage[]): AgentFlow {
  return async (task, context) => {
    const request = { messages: buildMessages(task), ...context.sampling, signal: context.signal };
    const response = await context.client.chat(request);
    const step = stepFromChat(request, response);
    return { name: "solver", steps: [step], reward: null, output: step.output, signals: {}, info: {} };
  };
}

/** Messages of a system prompt followed by the task's instruction as the user turn. */
export function systemThenInstruction(systemPrompt: string): (task: Task) => ChatMessage[] {
  return (task) => [
    { role: "system", content: systemPrompt },
    { role: "user", content: task.instruction },
  ];
}
